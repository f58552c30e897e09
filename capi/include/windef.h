/*
 * windef.h: the Windows base types, handles and geometry structs that <d3d9.h> and D3D9
 * programs use, for x86-64 Linux (LP64). Part of d3d9-wgpu's C ABI; written for it.
 *
 * Rule: every Windows integer type keeps its Windows size. LONG, ULONG, DWORD and HRESULT
 * are 32 bits here (int / unsigned int), not C's 64-bit `long`.
 */
#ifndef D3D9_WGPU_WINDEF_H
#define D3D9_WGPU_WINDEF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Calling conventions: the System V ABI on x86-64 Linux, so all empty. */
#define WINAPI
#define WINAPIV
#define APIENTRY
#define CALLBACK
#define STDMETHODCALLTYPE
#define STDMETHODVCALLTYPE
#define STDAPICALLTYPE

/* mingw-w64's headers write 32-bit constants as __MSABI_LONG(x) (x##L on Windows). */
#define __MSABI_LONG(x) x

/* Nameless struct/union members (C11 anonymous members). */
#define DUMMYSTRUCTNAME
#define DUMMYSTRUCTNAME1
#define DUMMYSTRUCTNAME2
#define DUMMYUNIONNAME
#define DUMMYUNIONNAME1
#define DUMMYUNIONNAME2

#ifndef CONST
#define CONST const
#endif
#ifndef VOID
#define VOID void
#endif
#ifndef FALSE
#define FALSE 0
#endif
#ifndef TRUE
#define TRUE 1
#endif

typedef unsigned char BYTE, UCHAR, BOOLEAN, *PBYTE, *LPBYTE;
typedef unsigned short WORD, USHORT, *PWORD, *LPWORD;
typedef short SHORT;
typedef int INT, LONG, BOOL, WINBOOL, *PINT, *LPINT, *PLONG, *LPLONG, *PBOOL, *LPBOOL;
typedef unsigned int UINT, ULONG, DWORD, *PUINT, *PULONG, *PDWORD, *LPDWORD;
typedef signed char INT8;
typedef unsigned char UINT8;
typedef short INT16;
typedef unsigned short UINT16;
typedef int INT32;
typedef unsigned int UINT32;
typedef long long LONGLONG, INT64;
typedef unsigned long long ULONGLONG, UINT64, DWORD64;
typedef float FLOAT;
typedef double DOUBLE;
typedef char CHAR;
typedef uint16_t WCHAR; /* UTF-16 code unit, as on Windows */
typedef intptr_t INT_PTR, LONG_PTR;
typedef uintptr_t UINT_PTR, ULONG_PTR, DWORD_PTR;
typedef size_t SIZE_T;
typedef void *PVOID, *LPVOID;
typedef const void *LPCVOID;
typedef char *LPSTR;
typedef const char *LPCSTR;
typedef WCHAR *LPWSTR;
typedef const WCHAR *LPCWSTR;
typedef LONG HRESULT;

/* Handles: distinct opaque pointer types, as with the SDK's STRICT. */
#define DECLARE_HANDLE(name) typedef struct name##__ *name
typedef void *HANDLE;
DECLARE_HANDLE(HWND);
DECLARE_HANDLE(HDC);
DECLARE_HANDLE(HMONITOR);
DECLARE_HANDLE(HINSTANCE);
DECLARE_HANDLE(HMENU);
typedef HINSTANCE HMODULE;

typedef struct tagRECT { LONG left, top, right, bottom; } RECT, *PRECT, *LPRECT;
typedef const RECT *LPCRECT;
typedef struct tagPOINT { LONG x, y; } POINT, *PPOINT, *LPPOINT;
typedef struct tagSIZE { LONG cx, cy; } SIZE, *PSIZE, *LPSIZE;

typedef struct tagPALETTEENTRY {
    BYTE peRed, peGreen, peBlue, peFlags;
} PALETTEENTRY, *PPALETTEENTRY, *LPPALETTEENTRY;

/* A region: header, then nCount RECTs in Buffer. */
typedef struct _RGNDATAHEADER {
    DWORD dwSize, iType, nCount, nRgnSize;
    RECT rcBound;
} RGNDATAHEADER, *PRGNDATAHEADER;
typedef struct _RGNDATA {
    RGNDATAHEADER rdh;
    char Buffer[1];
} RGNDATA, *PRGNDATA, *LPRGNDATA;

typedef struct _LUID { DWORD LowPart; LONG HighPart; } LUID, *PLUID;

typedef union _LARGE_INTEGER {
    struct { DWORD LowPart; LONG HighPart; } DUMMYSTRUCTNAME;
    struct { DWORD LowPart; LONG HighPart; } u;
    LONGLONG QuadPart;
} LARGE_INTEGER, *PLARGE_INTEGER;

typedef union _ULARGE_INTEGER {
    struct { DWORD LowPart; DWORD HighPart; } DUMMYSTRUCTNAME;
    struct { DWORD LowPart; DWORD HighPart; } u;
    ULONGLONG QuadPart;
} ULARGE_INTEGER, *PULARGE_INTEGER;

#define MAKEWORD(lo, hi) ((WORD)(((BYTE)(lo)) | ((WORD)((BYTE)(hi))) << 8))
#define MAKELONG(lo, hi) ((LONG)(((WORD)(lo)) | ((DWORD)((WORD)(hi))) << 16))
#define LOWORD(l) ((WORD)((DWORD_PTR)(l) & 0xffff))
#define HIWORD(l) ((WORD)(((DWORD_PTR)(l) >> 16) & 0xffff))
#define LOBYTE(w) ((BYTE)((DWORD_PTR)(w) & 0xff))
#define HIBYTE(w) ((BYTE)(((DWORD_PTR)(w) >> 8) & 0xff))

#ifndef NOMINMAX
#ifndef max
#define max(a, b) (((a) > (b)) ? (a) : (b))
#endif
#ifndef min
#define min(a, b) (((a) < (b)) ? (a) : (b))
#endif
#endif

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#define ZeroMemory(p, n) memset((p), 0, (n))
#define FillMemory(p, n, c) memset((p), (c), (n))
#define CopyMemory(d, s, n) memcpy((d), (s), (n))

#endif /* D3D9_WGPU_WINDEF_H */
