# Finds the Debian-packaged libraries clusterc uses and defines an imported target for each:
#   clusterc::glpk  (libglpk-dev)      clusterc::cgraph, clusterc::gvc (libgraphviz-dev)
#   clusterc::yaml  (libyaml-dev)      clusterc::jansson (libjansson-dev)
#   clusterc::nettle (nettle-dev)      clusterc::cunit (libcunit1-dev, tests only)
# and the flex and bison programs. `make deps` (scripts/install-deps.sh) installs them.
find_package(PkgConfig REQUIRED)
find_package(FLEX 2.6 REQUIRED)
find_package(BISON 3.8 REQUIRED)

pkg_check_modules(JANSSON REQUIRED IMPORTED_TARGET jansson)
add_library(clusterc::jansson ALIAS PkgConfig::JANSSON)
pkg_check_modules(YAML REQUIRED IMPORTED_TARGET yaml-0.1)
add_library(clusterc::yaml ALIAS PkgConfig::YAML)
pkg_check_modules(CGRAPH REQUIRED IMPORTED_TARGET libcgraph)
add_library(clusterc::cgraph ALIAS PkgConfig::CGRAPH)
# gvc with only the two plugins topology.svg needs, linked in (backends/topology.c says why):
# dot's layout and the core renderers (SVG). They live in libgvc's plugin directory, which the
# RPATH names so that the program finds them where the package installed them.
pkg_check_modules(GVC REQUIRED IMPORTED_TARGET libgvc)
find_library(GVPLUGIN_DOT_LAYOUT gvplugin_dot_layout REQUIRED HINTS ${GVC_LIBDIR}/graphviz
  NO_DEFAULT_PATH)
find_library(GVPLUGIN_CORE gvplugin_core REQUIRED HINTS ${GVC_LIBDIR}/graphviz NO_DEFAULT_PATH)
add_library(clusterc_gvc INTERFACE)
target_link_libraries(clusterc_gvc INTERFACE PkgConfig::GVC ${GVPLUGIN_DOT_LAYOUT} ${GVPLUGIN_CORE})
add_library(clusterc::gvc ALIAS clusterc_gvc)
set(CMAKE_INSTALL_RPATH_USE_LINK_PATH ON)
pkg_check_modules(NETTLE REQUIRED IMPORTED_TARGET nettle)
add_library(clusterc::nettle ALIAS PkgConfig::NETTLE)

# GLPK ships no pkg-config file.
find_path(GLPK_INCLUDE_DIR glpk.h REQUIRED)
find_library(GLPK_LIBRARY glpk REQUIRED)
add_library(clusterc::glpk UNKNOWN IMPORTED)
set_target_properties(clusterc::glpk PROPERTIES
  IMPORTED_LOCATION ${GLPK_LIBRARY}
  INTERFACE_INCLUDE_DIRECTORIES ${GLPK_INCLUDE_DIR})

if(CLUSTERC_TESTS)
  pkg_check_modules(CUNIT REQUIRED IMPORTED_TARGET cunit)
  add_library(clusterc::cunit ALIAS PkgConfig::CUNIT)
endif()

find_library(MATH_LIBRARY m)
