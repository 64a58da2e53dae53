# The Debian package of `lowcostgpu`, made by CPack from this build (deploy/package; the tests
# install it on a fresh Debian 12 container): the binary in /usr/bin and the README. Its Depends
# come from dpkg-shlibdeps (dpkg-dev, part of build-essential), from the libraries the binary
# links, so the package installs with apt on Debian 12 and nothing else.
include(GNUInstallDirs)
install(TARGETS lowcostgpu RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME lowcostgpu)
set(CPACK_PACKAGE_VENDOR LowCostGPU)
set(CPACK_PACKAGE_CONTACT "LowCostGPU pricing team <pricing@lowcostgpu.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "LowCostGPU's weekly GPU price sheet: HTTP API, MCP server, mirror and auditor")
set(CPACK_PACKAGE_DESCRIPTION
    "One binary: serve publishes the weekly price sheet, the GPU catalog and the glossary over HTTP and MCP
from PostgreSQL; mcp --upstream URL is a local MCP server over stdio that mirrors a public instance,
checking every sheet's signature and figures (its keys pinned on first use); audit recomputes every
published price from the published inputs.")
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
include(CPack)
