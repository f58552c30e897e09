/*
 * winerror.h: HRESULT codes and their macros, as Windows defines them. Part of d3d9-wgpu's
 * C ABI; written for it. HRESULT is a 32-bit signed int (see windef.h): failure codes are
 * negative.
 */
#ifndef D3D9_WGPU_WINERROR_H
#define D3D9_WGPU_WINERROR_H

#include <windef.h>

#define SEVERITY_SUCCESS 0
#define SEVERITY_ERROR 1
#define FACILITY_NULL 0
#define FACILITY_WIN32 7

/* Bit 31 severity, bits 16..26 facility, bits 0..15 code. */
#define MAKE_HRESULT(sev, fac, code) \
    ((HRESULT)(((unsigned int)(sev) << 31) | ((unsigned int)(fac) << 16) | ((unsigned int)(code))))
#define SUCCEEDED(hr) (((HRESULT)(hr)) >= 0)
#define FAILED(hr) (((HRESULT)(hr)) < 0)
#define HRESULT_CODE(hr) ((hr) & 0xffff)
#define HRESULT_FACILITY(hr) (((hr) >> 16) & 0x1fff)
#define HRESULT_SEVERITY(hr) (((hr) >> 31) & 0x1)

#define S_OK ((HRESULT)0)
#define S_FALSE ((HRESULT)1)
#define E_NOTIMPL ((HRESULT)0x80004001u)
#define E_NOINTERFACE ((HRESULT)0x80004002u)
#define E_POINTER ((HRESULT)0x80004003u)
#define E_ABORT ((HRESULT)0x80004004u)
#define E_FAIL ((HRESULT)0x80004005u)
#define E_UNEXPECTED ((HRESULT)0x8000ffffu)
#define E_ACCESSDENIED ((HRESULT)0x80070005u)
#define E_HANDLE ((HRESULT)0x80070006u)
#define E_OUTOFMEMORY ((HRESULT)0x8007000eu)
#define E_INVALIDARG ((HRESULT)0x80070057u)

#endif /* D3D9_WGPU_WINERROR_H */
