# Builds the Debian package with cpack into WORK_DIR and checks it: its file name and fields,
# every path it must install, its Depends, the icon sizes, and that the packaged .desktop entry
# and MIME XML validate and agree with each other.
# Run by ctest: cmake -DBUILD_DIR=... -DWORK_DIR=... -DCPACK=... -DVERSION=... -P package_test.cmake
cmake_minimum_required(VERSION 3.25)

function(require_tool var name package)
  find_program(${var} ${name} PATHS /usr/sbin /sbin)
  if(NOT ${var})
    message(FATAL_ERROR "${name} not found: install the Debian package ${package} "
                        "(scripts/install-deps.sh installs it)")
  endif()
endfunction()

# Runs a command; fails the test with its output if it fails. Its stdout is left in RUN_OUT.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    list(JOIN ARGN " " cmd)
    message(FATAL_ERROR "`${cmd}` failed (${rc}):\n${out}${err}")
  endif()
  set(RUN_OUT "${out}" PARENT_SCOPE)
endfunction()

require_tool(DPKG dpkg dpkg)
require_tool(DPKG_DEB dpkg-deb dpkg)
require_tool(DPKG_SHLIBDEPS dpkg-shlibdeps dpkg-dev)
require_tool(DESKTOP_FILE_VALIDATE desktop-file-validate desktop-file-utils)
require_tool(XMLLINT xmllint libxml2-utils)
require_tool(UPDATE_MIME_DATABASE update-mime-database shared-mime-info)

# The package, built from the current build (cpack first brings it up to date).
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
run(${CPACK} -G DEB -B ${WORK_DIR} --config ${BUILD_DIR}/CPackConfig.cmake)
run(${DPKG} --print-architecture)
string(STRIP "${RUN_OUT}" arch)
set(deb ${WORK_DIR}/lanescope_${VERSION}_${arch}.deb)
if(NOT EXISTS ${deb})
  file(GLOB made ${WORK_DIR}/*.deb)
  message(FATAL_ERROR "cpack did not write ${deb} (it wrote: ${made})")
endif()

foreach(field_value "Package=lanescope" "Version=${VERSION}" "Architecture=${arch}")
  string(REPLACE "=" ";" fv ${field_value})
  list(GET fv 0 field)
  list(GET fv 1 expected)
  run(${DPKG_DEB} -f ${deb} ${field})
  string(STRIP "${RUN_OUT}" value)
  if(NOT value STREQUAL expected)
    message(FATAL_ERROR "${field} is '${value}', expected '${expected}'")
  endif()
endforeach()

# Depends names the Debian packages of the libraries the binaries link (dpkg-shlibdeps adds any
# library linked later, such as libspdlog1.10, by itself).
run(${DPKG_DEB} -f ${deb} Depends)
string(STRIP "${RUN_OUT}" depends)
message(STATUS "Depends: ${depends}")
foreach(pkg libqt6core6 libqt6gui6 libqt6widgets6 libqt6charts6 libsqlite3-0 libprotobuf32
            libsimdjson14 zlib1g)
  string(REPLACE "." "\\." pattern ${pkg})
  if(NOT ", ${depends}," MATCHES ", ${pattern}[ ,]")
    message(FATAL_ERROR "Depends lacks ${pkg}: ${depends}")
  endif()
endforeach()

# Every path the package must install, the binaries executable.
run(${DPKG_DEB} -c ${deb})
set(listing "\n${RUN_OUT}")  # each entry now starts after a newline
set(expected_paths
  usr/bin/lanescope usr/bin/lanescope-cli usr/bin/lanescope-cli-render
  usr/share/lanescope/train_1gpu.sqlite
  usr/share/applications/lanescope.desktop
  usr/share/mime/packages/lanescope.xml
  usr/share/icons/hicolor/scalable/apps/lanescope.svg)
set(icon_sizes 16 22 24 32 48 64 128 256)
foreach(size ${icon_sizes})
  list(APPEND expected_paths usr/share/icons/hicolor/${size}x${size}/apps/lanescope.png)
endforeach()
foreach(path ${expected_paths})
  string(REPLACE "." "\\." pattern ${path})
  if(NOT listing MATCHES "\n[^\n]* \\./${pattern}\n")
    message(FATAL_ERROR "the package lacks /${path}; it holds:\n${listing}")
  endif()
  if(path MATCHES "^usr/bin/" AND NOT listing MATCHES "\n-rwxr-xr-x root/root [^\n]* \\./${pattern}\n")
    message(FATAL_ERROR "/${path} is not an executable owned by root:\n${listing}")
  endif()
endforeach()

# The files as installed: each PNG has its folder's size (width and height in the IHDR chunk).
run(${DPKG_DEB} -x ${deb} ${WORK_DIR}/root)
set(share ${WORK_DIR}/root/usr/share)
foreach(size ${icon_sizes})
  file(READ ${share}/icons/hicolor/${size}x${size}/apps/lanescope.png ihdr OFFSET 16 LIMIT 8 HEX)
  string(SUBSTRING "${ihdr}" 0 8 width)
  string(SUBSTRING "${ihdr}" 8 8 height)
  math(EXPR width "0x${width}")
  math(EXPR height "0x${height}")
  if(NOT width EQUAL size OR NOT height EQUAL size)
    message(FATAL_ERROR "hicolor/${size}x${size}/apps/lanescope.png is ${width}x${height}")
  endif()
endforeach()

# The Python module, where Debian's python3 finds the modules of packages, imports from the
# unpacked package (not the build tree) and reads the sample report the package installs.
if(PYTHON)
  set(dist_packages usr/lib/python3/dist-packages)
  if(NOT listing MATCHES "\n[^\n]* \\./${dist_packages}/lanescope\\.cpython-[^\n/]*\\.so\n")
    message(FATAL_ERROR "the package lacks the Python module in /${dist_packages}:\n${listing}")
  endif()
  run(${DPKG_DEB} -f ${deb} Recommends)
  if(NOT RUN_OUT MATCHES "python3-pandas")
    message(FATAL_ERROR "Recommends lacks python3-pandas: ${RUN_OUT}")
  endif()
  run(${CMAKE_COMMAND} -E env ${PYTHON_ENV} PYTHONPATH=${WORK_DIR}/root/${dist_packages} PYTHONDONTWRITEBYTECODE=1
      ${PYTHON} -c
      "import lanescope, sys\nprint(lanescope.__file__)\nprint(lanescope.open(sys.argv[1]).info()['counts']['kernels'])"
      ${share}/lanescope/train_1gpu.sqlite)
  string(REPLACE "\n" ";" printed "${RUN_OUT}")
  list(GET printed 0 module_file)
  list(GET printed 1 kernels)
  string(FIND "${module_file}" "${WORK_DIR}/root/${dist_packages}/" at)
  if(NOT at EQUAL 0 OR NOT kernels EQUAL 1950)
    message(FATAL_ERROR "the packaged Python module: ${RUN_OUT}")
  endif()
  message(STATUS "the packaged Python module read ${kernels} kernels from the sample report")
endif()

# The .desktop entry validates and names the packaged binary and icon.
set(desktop ${share}/applications/lanescope.desktop)
run(${DESKTOP_FILE_VALIDATE} ${desktop})
if(RUN_OUT MATCHES "error|warning")
  message(FATAL_ERROR "desktop-file-validate on lanescope.desktop:\n${RUN_OUT}")
endif()
file(STRINGS ${desktop} exec REGEX "^Exec=")
file(STRINGS ${desktop} icon REGEX "^Icon=")
if(NOT exec STREQUAL "Exec=lanescope %F" OR NOT icon STREQUAL "Icon=lanescope")
  message(FATAL_ERROR "lanescope.desktop: expected Exec=lanescope %F and Icon=lanescope, has ${exec} ${icon}")
endif()

# The MIME XML is well-formed, builds a database with freedesktop.org's types, and every type
# the .desktop entry handles exists there with our globs.
set(mime_xml ${share}/mime/packages/lanescope.xml)
run(${XMLLINT} --noout ${mime_xml})
set(freedesktop /usr/share/mime/packages/freedesktop.org.xml)
if(NOT EXISTS ${freedesktop})
  message(FATAL_ERROR "${freedesktop} not found: install the Debian package shared-mime-info")
endif()
file(COPY ${mime_xml} ${freedesktop} DESTINATION ${WORK_DIR}/mime/packages)
run(${UPDATE_MIME_DATABASE} ${WORK_DIR}/mime)
file(STRINGS ${WORK_DIR}/mime/types known_types)
file(READ ${desktop} desktop_text)
string(REGEX MATCH "\nMimeType=([^\n]*)" unused "${desktop_text}")
set(mime_types "${CMAKE_MATCH_1}")  # a CMake list: the entry separates types by ';'
foreach(type ${mime_types})
  if(NOT type IN_LIST known_types)
    message(FATAL_ERROR "lanescope.desktop handles ${type}, which no MIME package defines")
  endif()
endforeach()
file(READ ${WORK_DIR}/mime/globs2 globs)
foreach(type_glob x-nsys-rep:*.nsys-rep x-nsys-rep:*.qdrep x-nsys-sqlite:*.nsys.sqlite
                  x-pytorch-trace:*.pt.trace.json x-pytorch-trace-gzip:*.pt.trace.json.gz
                  x-perfetto-trace:*.pftrace x-perfetto-trace:*.perfetto-trace)
  string(FIND "${globs}" ":application/${type_glob}\n" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the MIME database lacks application/${type_glob}:\n${globs}")
  endif()
endforeach()

# Both installed programs print the version from CMake, the viewer with no display at all.
foreach(program_expected "lanescope=Lanescope ${VERSION}" "lanescope-cli=lanescope-cli ${VERSION}")
  string(REPLACE "=" ";" pe "${program_expected}")
  list(GET pe 0 program)
  list(GET pe 1 expected)
  run(${CMAKE_COMMAND} -E env --unset=DISPLAY --unset=WAYLAND_DISPLAY --unset=QT_QPA_PLATFORM
      ${WORK_DIR}/root/usr/bin/${program} --version)
  string(STRIP "${RUN_OUT}" printed)
  if(NOT printed STREQUAL expected)
    message(FATAL_ERROR "${program} --version printed '${printed}', expected '${expected}'")
  endif()
endforeach()

# The viewer starts from where the package puts it, under Xvfb, and with no file given shows the
# sample report the package installed beside it (not the one in the source tree): its log names
# the file it imported and its screenshot is a full window, not an empty one.
require_tool(XVFB_RUN xvfb-run xvfb)
set(home ${WORK_DIR}/home)  # settings and log of this run, not the user's
file(MAKE_DIRECTORY ${home})
set(shot ${WORK_DIR}/installed.png)
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env HOME=${home} XDG_CONFIG_HOME=${home}/.config XDG_STATE_HOME=${home}/.state
          QT_QPA_PLATFORM=xcb
          ${XVFB_RUN} -a -s "-screen 0 1600x1000x24"
          ${WORK_DIR}/root/usr/bin/lanescope --verbose --screenshot ${shot} --size 1400x900
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the installed lanescope failed (${rc}):\n${out}${err}")
endif()
set(installed_sample ${share}/lanescope/train_1gpu.sqlite)
file(REAL_PATH ${installed_sample} installed_sample)
string(FIND "${err}" "${installed_sample}: imported as nsys-sqlite" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the installed lanescope did not import ${installed_sample}:\n${err}")
endif()
file(READ ${shot} png_head OFFSET 16 LIMIT 8 HEX)
string(SUBSTRING "${png_head}" 0 8 width)
math(EXPR width "0x${width}")
file(SIZE ${shot} shot_bytes)
if(NOT width EQUAL 1400 OR shot_bytes LESS 40000)
  message(FATAL_ERROR "the installed lanescope's screenshot is ${width} px wide, ${shot_bytes} bytes")
endif()
message(STATUS "installed lanescope showed ${installed_sample} (${shot}, ${shot_bytes} bytes)")

message(STATUS "${deb}: contents, Depends, .desktop entry and MIME types as expected")
