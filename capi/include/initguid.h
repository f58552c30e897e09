/*
 * initguid.h: on Windows, makes DEFINE_GUID define the GUIDs instead of declaring them.
 * Here DEFINE_GUID always defines a file-local constant (objbase.h), so this only defines
 * INITGUID, and keeps mingw-w64's own initguid.h (and its GUID definitions) out.
 * Part of d3d9-wgpu's C ABI; written for it.
 */
#ifndef INITGUID
#define INITGUID
#endif
#include <objbase.h>
