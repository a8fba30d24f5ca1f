# Fails when a layer includes what it must not (ARCHITECTURE.md section 1).
function(check_folder folder regex what)
  file(GLOB_RECURSE files "${SOURCE_DIR}/${folder}/*.h" "${SOURCE_DIR}/${folder}/*.cpp")
  foreach(f IN LISTS files)
    file(STRINGS "${f}" hits REGEX "${regex}")
    if(hits)
      message(SEND_ERROR "${f}: ${what}: ${hits}")
    endif()
  endforeach()
endfunction()
check_folder(model "^[ \t]*#[ \t]*include[ \t]*[<\"](Q|qt|importers/|exporters/|formats/|timeline/|app/|analysis/)" "model/ includes Qt or an upper layer")
check_folder(importers "^[ \t]*#[ \t]*include[ \t]*[<\"](Q|qt|timeline/|app/|analysis/|exporters/)" "importers/ includes Qt or another layer")
check_folder(timeline "^[ \t]*#[ \t]*include[ \t]*[<\"](importers/|exporters/|app/|analysis/)" "timeline/ includes importers/, exporters/, analysis/ or app/")
check_folder(analysis "^[ \t]*#[ \t]*include[ \t]*[<\"](Q|qt|importers/|timeline/|app/|exporters/)" "analysis/ includes Qt, an importer or an upper layer")
check_folder(exporters "^[ \t]*#[ \t]*include[ \t]*[<\"](Q|qt|importers/|timeline/|app/|analysis/)" "exporters/ includes Qt, an importer or an upper layer")
# formats/: what an importer and an exporter of one format share (names, the .proto subset); model/ only.
check_folder(formats "^[ \t]*#[ \t]*include[ \t]*[<\"](Q|qt|importers/|exporters/|timeline/|app/|analysis/)" "formats/ includes Qt or a layer other than model/")
# query/: SQL over the model (SQLite); no Qt, no importers, no upper layer.
check_folder(query "^[ \t]*#[ \t]*include[ \t]*[<\"](Q|qt|importers/|timeline/|app/|exporters/)" "query/ includes Qt, an importer or an upper layer")
