# The replay viewer's bundle (viewer/: three.js bundled by esbuild, both from
# npm), written next to the pegsim binary as viewer/pegsim-viewer.js, where
# `pegsim replay` looks for it. Built when node is installed and `npm ci` has
# run in viewer/ (scripts/setup.sh does both); otherwise pegsim replay says so.
find_program(PEGSIM_NODE node)
if(TARGET pegsim_cli AND PEGSIM_NODE AND EXISTS "${PEGSIM_NODE}" AND EXISTS ${PROJECT_SOURCE_DIR}/viewer/node_modules/esbuild)
  file(GLOB pegsim_viewer_srcs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/viewer/src/*.js)
  set(PEGSIM_VIEWER_BUNDLE ${PROJECT_BINARY_DIR}/viewer/pegsim-viewer.js)
  add_custom_command(OUTPUT ${PEGSIM_VIEWER_BUNDLE}
    COMMAND ${PEGSIM_NODE} ${PROJECT_SOURCE_DIR}/viewer/build.mjs --out ${PEGSIM_VIEWER_BUNDLE}
    DEPENDS ${pegsim_viewer_srcs} ${PROJECT_SOURCE_DIR}/viewer/build.mjs ${PROJECT_SOURCE_DIR}/viewer/package-lock.json
    COMMENT "Bundling the replay viewer (viewer/)")
  add_custom_target(pegsim_viewer ALL DEPENDS ${PEGSIM_VIEWER_BUNDLE})
  add_dependencies(pegsim_cli pegsim_viewer)
else()
  message(STATUS "pegsim replay: viewer bundle not built (needs node and `npm ci` in viewer/; scripts/setup.sh does both)")
endif()
