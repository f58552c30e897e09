/*
 * d3d9_native.h: what libd3d9 (d3d9-wgpu's C ABI) adds to <d3d9.h> for native Linux
 * programs. Written for d3d9-wgpu.
 *
 * Windows. An HWND that libd3d9 does not know (any handle a program makes up, a stand-in's
 * CreateWindowExA result, GetDesktopWindow's) is a headless window: presenting to it draws
 * into the back buffer only. Its back buffer has the present parameters' size, and
 * 640x480 where BackBufferWidth or BackBufferHeight is 0. Nothing here yet hands libd3d9 a
 * real window; that will be declared in this header.
 */
#ifndef D3D9_WGPU_D3D9_NATIVE_H
#define D3D9_WGPU_D3D9_NATIVE_H

#include <windows.h>
#include <d3d9.h>

#endif /* D3D9_WGPU_D3D9_NATIVE_H */
