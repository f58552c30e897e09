/* What the C conformance programs of d3d9-wgpu's C ABI share: checks that print what they
 * checked and exit non-zero naming the first one that fails, a headless device, and the
 * back buffer read back the way a D3D9 application reads it (CreateOffscreenPlainSurface in
 * D3DPOOL_SYSTEMMEM, GetRenderTargetData, LockRect).
 *
 * Built with the project's compile line:
 *   cc -std=gnu11 -I capi/include -idirafter /usr/share/mingw-w64/include prog.c \
 *      -L <libdir> -ld3d9 -lm -Wl,-rpath,<libdir>
 */
#ifndef D3D9_CHECK_H
#define D3D9_CHECK_H

#define COBJMACROS
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>
#include <d3d9.h>

/* libd3d9's count of its live COM objects (0 once a program released everything). */
extern unsigned int D3D9NativeLiveObjects(void);

static unsigned int checks_passed;

/* Fails the program with the check's text unless `cond` holds. */
#define CHECK(cond, ...)                                                          \
    do                                                                            \
    {                                                                             \
        if (!(cond))                                                              \
        {                                                                         \
            printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                \
            printf(__VA_ARGS__);                                                  \
            printf("\n");                                                         \
            fflush(stdout);                                                       \
            exit(1);                                                              \
        }                                                                         \
        ++checks_passed;                                                          \
    } while (0)

/* Fails the program unless an HRESULT `got` (of the call `call`) is `want`. */
static inline void check_hr_at(HRESULT got, HRESULT want, const char *call,
        const char *want_name, const char *file, int line)
{
    if (got != want)
    {
        printf("FAIL %s:%d: %s returned %#x, expected %s (%#x)\n", file, line, call,
                (unsigned int)got, want_name, (unsigned int)want);
        fflush(stdout);
        exit(1);
    }
    ++checks_passed;
}

/* `call` returns exactly `expected` (an HRESULT). */
#define CHECK_HR(call, expected) check_hr_at((call), (expected), #call, #expected, __FILE__, __LINE__)

/* `value` (an unsigned count or DWORD) equals `expected`. */
#define CHECK_EQ(value, expected)                                                 \
    do                                                                            \
    {                                                                             \
        unsigned long long got_ = (unsigned long long)(value);                    \
        unsigned long long want_ = (unsigned long long)(expected);                \
        if (got_ != want_)                                                        \
        {                                                                         \
            printf("FAIL %s:%d: %s is %#llx (%llu), expected %s = %#llx (%llu)\n",  \
                    __FILE__, __LINE__, #value, got_, got_, #expected, want_,     \
                    want_);                                                       \
            fflush(stdout);                                                       \
            exit(1);                                                              \
        }                                                                         \
        ++checks_passed;                                                          \
    } while (0)

/* The public count of any interface now: AddRef then Release (Release's answer). */
static inline ULONG refcount(void *object)
{
    IUnknown *unknown = (IUnknown *)object;
    IUnknown_AddRef(unknown);
    return IUnknown_Release(unknown);
}

/* Prints the section a program goes on to check. */
static inline void section(const char *name)
{
    printf("== %s\n", name);
    fflush(stdout);
}

/* A device on a headless window (an HWND libd3d9 does not know), width x height X8R8G8B8,
 * with `flags` (D3DCREATE_*_VERTEXPROCESSING). */
static inline IDirect3DDevice9 *create_device(IDirect3D9 *d3d, DWORD flags, UINT width,
        UINT height)
{
    D3DPRESENT_PARAMETERS pp;
    IDirect3DDevice9 *device = NULL;

    memset(&pp, 0, sizeof(pp));
    pp.BackBufferWidth = width;
    pp.BackBufferHeight = height;
    pp.BackBufferFormat = D3DFMT_X8R8G8B8;
    pp.Windowed = TRUE;
    pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
    CHECK_HR(IDirect3D9_CreateDevice(d3d, D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL, (HWND)1, flags,
            &pp, &device), D3D_OK);
    CHECK(device != NULL, "CreateDevice gave no device");
    return device;
}

/* A render target read back into memory: one D3DCOLOR per pixel, row after row. */
struct readback
{
    UINT width, height;
    DWORD *pixels;
};

/* Render target 0 read back: GetRenderTargetData into a SYSTEMMEM surface, LockRect. */
static inline struct readback read_back(IDirect3DDevice9 *device)
{
    IDirect3DSurface9 *target = NULL, *copy = NULL;
    D3DSURFACE_DESC desc;
    D3DLOCKED_RECT locked;
    struct readback out;
    UINT y;

    CHECK_HR(IDirect3DDevice9_GetRenderTarget(device, 0, &target), D3D_OK);
    CHECK_HR(IDirect3DSurface9_GetDesc(target, &desc), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreateOffscreenPlainSurface(device, desc.Width, desc.Height,
            desc.Format, D3DPOOL_SYSTEMMEM, &copy, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_GetRenderTargetData(device, target, copy), D3D_OK);
    CHECK_HR(IDirect3DSurface9_LockRect(copy, &locked, NULL, D3DLOCK_READONLY), D3D_OK);
    CHECK(locked.Pitch >= (INT)(desc.Width * 4), "pitch %d for width %u", locked.Pitch,
            desc.Width);
    out.width = desc.Width;
    out.height = desc.Height;
    out.pixels = malloc(sizeof(DWORD) * desc.Width * desc.Height);
    CHECK(out.pixels != NULL, "out of memory");
    for (y = 0; y < desc.Height; ++y)
        memcpy(out.pixels + y * desc.Width, (const BYTE *)locked.pBits + y * locked.Pitch,
                desc.Width * 4);
    CHECK_HR(IDirect3DSurface9_UnlockRect(copy), D3D_OK);
    IDirect3DSurface9_Release(copy);
    IDirect3DSurface9_Release(target);
    return out;
}

/* The pixel at (x, y), without the alpha byte (X8R8G8B8 leaves it undefined). */
static inline DWORD pixel_at(const struct readback *image, UINT x, UINT y)
{
    return image->pixels[y * image->width + x] & 0x00ffffffu;
}

/* The pixel at (x, y) of render target 0 is exactly `rgb` (0xRRGGBB). */
#define CHECK_PIXEL(image, x, y, rgb)                                             \
    do                                                                            \
    {                                                                             \
        DWORD got_ = pixel_at((image), (x), (y));                                 \
        if (got_ != (DWORD)(rgb))                                                 \
        {                                                                         \
            printf("FAIL %s:%d: pixel (%u, %u) is %06x, expected %06x\n",         \
                    __FILE__, __LINE__, (unsigned int)(x), (unsigned int)(y),     \
                    (unsigned int)got_, (unsigned int)(rgb));                     \
            fflush(stdout);                                                       \
            exit(1);                                                              \
        }                                                                         \
        ++checks_passed;                                                          \
    } while (0)

static inline void free_readback(struct readback *image)
{
    free(image->pixels);
    image->pixels = NULL;
}

/* Ends a program that passed: every object released, nothing of libd3d9 left alive. */
static inline int finish(const char *program)
{
    CHECK_EQ(D3D9NativeLiveObjects(), 0);
    printf("%s: all %u checks passed\n", program, checks_passed);
    return 0;
}

#endif /* D3D9_CHECK_H */
