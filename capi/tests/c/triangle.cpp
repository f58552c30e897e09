// The FVF triangle of draw.c through <d3d9.h>'s C++ interfaces (classes with virtual
// methods: `d3d->CreateDevice(...)`, `device->DrawPrimitiveUP(...)`), read back through a
// SYSTEMMEM surface: exact colours inside the triangle, the clear colour outside, every
// object released (D3D9NativeLiveObjects() back to 0). Prints what it checked; exits
// non-zero naming the first check that fails.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <windows.h>
#include <d3d9.h>

extern "C" unsigned int D3D9NativeLiveObjects(void);

static unsigned int checks;

static void check(bool ok, const char *what, unsigned long long got, int line)
{
    if (!ok)
    {
        std::printf("FAIL triangle.cpp:%d: %s (got %#llx)\n", line, what, got);
        std::fflush(stdout);
        std::exit(1);
    }
    ++checks;
}

#define EXPECT(cond, value) check((cond), #cond, (unsigned long long)(value), __LINE__)

// The HRESULT of `call` is `expected`.
#define HR(call, expected)                                      \
    do                                                          \
    {                                                           \
        HRESULT hr_ = (call);                                   \
        check(hr_ == (expected), #call " == " #expected,        \
                (unsigned long long)(unsigned int)hr_, __LINE__); \
    } while (0)

struct Vertex
{
    float x, y, z, rhw;
    DWORD diffuse;
};

int main()
{
    const UINT width = 64, height = 64;
    IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
    EXPECT(d3d != nullptr, 0);

    D3DPRESENT_PARAMETERS pp = {};
    pp.BackBufferWidth = width;
    pp.BackBufferHeight = height;
    pp.BackBufferFormat = D3DFMT_X8R8G8B8;
    pp.Windowed = TRUE;
    pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
    IDirect3DDevice9 *device = nullptr;
    HR(d3d->CreateDevice(D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL, reinterpret_cast<HWND>(1),
            D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device), D3D_OK);
    EXPECT(device != nullptr, 0);

    // Clockwise on screen: D3D9's front face under the default D3DCULL_CCW.
    const Vertex triangle[] = {
        {8.0f, 8.0f, 0.5f, 1.0f, 0xffff0000},
        {56.0f, 8.0f, 0.5f, 1.0f, 0xffff0000},
        {8.0f, 56.0f, 0.5f, 1.0f, 0xffff0000},
    };
    HR(device->SetFVF(D3DFVF_XYZRHW | D3DFVF_DIFFUSE), D3D_OK);
    HR(device->Clear(0, nullptr, D3DCLEAR_TARGET, D3DCOLOR_XRGB(0, 0, 0xff), 1.0f, 0), D3D_OK);
    HR(device->BeginScene(), D3D_OK);
    HR(device->DrawPrimitiveUP(D3DPT_TRIANGLELIST, 1, triangle, sizeof(Vertex)), D3D_OK);
    HR(device->EndScene(), D3D_OK);

    IDirect3DSurface9 *target = nullptr, *copy = nullptr;
    HR(device->GetRenderTarget(0, &target), D3D_OK);
    HR(device->CreateOffscreenPlainSurface(width, height, D3DFMT_X8R8G8B8, D3DPOOL_SYSTEMMEM,
            &copy, nullptr), D3D_OK);
    HR(device->GetRenderTargetData(target, copy), D3D_OK);
    D3DLOCKED_RECT locked = {};
    HR(copy->LockRect(&locked, nullptr, D3DLOCK_READONLY), D3D_OK);
    auto pixel = [&](UINT x, UINT y) {
        DWORD value;
        std::memcpy(&value, static_cast<const BYTE *>(locked.pBits) + y * locked.Pitch + x * 4,
                sizeof(value));
        return value & 0x00ffffffu;
    };
    EXPECT(pixel(16, 16) == 0xff0000u, pixel(16, 16)); // inside
    EXPECT(pixel(40, 12) == 0xff0000u, pixel(40, 12));
    EXPECT(pixel(12, 40) == 0xff0000u, pixel(12, 40));
    EXPECT(pixel(48, 48) == 0x0000ffu, pixel(48, 48)); // beyond the long edge
    EXPECT(pixel(2, 2) == 0x0000ffu, pixel(2, 2));
    EXPECT(pixel(60, 60) == 0x0000ffu, pixel(60, 60));
    HR(copy->UnlockRect(), D3D_OK);
    std::printf("ok: inside ff0000, outside 0000ff\n");

    EXPECT(copy->Release() == 0, 0);
    EXPECT(target->Release() == 0, 0);
    ULONG left = device->Release();
    EXPECT(left == 0, left);
    left = d3d->Release();
    EXPECT(left == 0, left);
    EXPECT(D3D9NativeLiveObjects() == 0, D3D9NativeLiveObjects());
    std::printf("triangle.cpp: all %u checks passed\n", checks);
    return 0;
}
