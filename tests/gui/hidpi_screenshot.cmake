# High-DPI: the viewer at device pixel ratio 2 (QT_SCALE_FACTOR=2) paints at twice the pixels
# of its logical size, so lines and text are drawn for the screen, not scaled up from 1x.
# Run by ctest: cmake -DVIEWER=... -DSAMPLE=... -DWORK_DIR=... -P hidpi_screenshot.cmake
cmake_minimum_required(VERSION 3.25)

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/home)

# Width and height of a PNG from its IHDR chunk.
function(png_size file out_width out_height)
  file(READ ${file} ihdr OFFSET 16 LIMIT 8 HEX)
  string(SUBSTRING "${ihdr}" 0 8 w)
  string(SUBSTRING "${ihdr}" 8 8 h)
  math(EXPR w "0x${w}")
  math(EXPR h "0x${h}")
  set(${out_width} ${w} PARENT_SCOPE)
  set(${out_height} ${h} PARENT_SCOPE)
endfunction()

foreach(scale 1 2)
  set(shot ${WORK_DIR}/sample_${scale}x.png)
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env HOME=${WORK_DIR}/home XDG_CONFIG_HOME=${WORK_DIR}/home/.config
            XDG_STATE_HOME=${WORK_DIR}/home/.state QT_QPA_PLATFORM=offscreen QT_SCALE_FACTOR=${scale}
            ${VIEWER} --screenshot ${shot} --size 1000x640 ${SAMPLE}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "lanescope at scale ${scale} failed (${rc}):\n${out}${err}")
  endif()
  png_size(${shot} width height)
  math(EXPR want_w "1000 * ${scale}")
  math(EXPR want_h "640 * ${scale}")
  if(NOT width EQUAL want_w OR NOT height EQUAL want_h)
    message(FATAL_ERROR "at scale ${scale} the window painted ${width}x${height} pixels, expected ${want_w}x${want_h}")
  endif()
  file(SIZE ${shot} bytes)
  set(bytes_${scale} ${bytes})
endforeach()
# Drawn at 2x, the picture holds more detail than the 1x one scaled up would (edges, glyphs).
if(NOT bytes_2 GREATER bytes_1)
  message(FATAL_ERROR "the 2x screenshot (${bytes_2} bytes) holds no more detail than the 1x one (${bytes_1} bytes)")
endif()
message(STATUS "1x: ${bytes_1} bytes, 2x: ${bytes_2} bytes (${WORK_DIR})")
