/*
 * objbase.h: the COM subset <d3d9.h> needs: GUID/IID, DEFINE_GUID, IsEqualGUID, IUnknown
 * and the interface-declaration macros. Part of d3d9-wgpu's C ABI; written for it.
 *
 * Object layout (C and C++ alike): an interface pointer points to an object whose first
 * field points to a table of function pointers in the header's method order, IUnknown's
 * QueryInterface, AddRef, Release first. Each method takes the interface pointer first
 * (C++: the implicit `this`), System V calling convention. In C a `REFIID` is a
 * `const IID *`; in C++ a `const IID &`: both pass a pointer.
 */
#ifndef D3D9_WGPU_OBJBASE_H
#define D3D9_WGPU_OBJBASE_H

#include <string.h>
#include <windef.h>
#include <winerror.h>

typedef struct _GUID {
    unsigned int Data1;
    unsigned short Data2;
    unsigned short Data3;
    unsigned char Data4[8];
} GUID, IID, CLSID, *LPGUID, *LPIID, *LPCLSID;

#ifdef __cplusplus
#define REFGUID const GUID &
#define REFIID const IID &
#define REFCLSID const CLSID &
#define EXTERN_C extern "C"
inline bool IsEqualGUID(REFGUID a, REFGUID b) { return !memcmp(&a, &b, sizeof(GUID)); }
#else
#define REFGUID const GUID *
#define REFIID const IID *
#define REFCLSID const CLSID *
#define EXTERN_C extern
#define IsEqualGUID(a, b) (!memcmp((a), (b), sizeof(GUID)))
#endif
#define IsEqualIID(a, b) IsEqualGUID(a, b)
#define IsEqualCLSID(a, b) IsEqualGUID(a, b)

/*
 * DEFINE_GUID defines a file-local constant whether or not INITGUID is defined, so no IID_*
 * symbol has to come from a library; `unused` keeps -Wall quiet about the ones a file skips.
 */
#define DEFINE_GUID(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8) \
    static const GUID name __attribute__((unused)) =                   \
        { l, w1, w2, { b1, b2, b3, b4, b5, b6, b7, b8 } }

#define STDAPI EXTERN_C HRESULT STDAPICALLTYPE
#define STDAPI_(type) EXTERN_C type STDAPICALLTYPE

#if defined(__cplusplus) && !defined(CINTERFACE)
/* C++: an interface is a struct of pure virtual methods (Itanium ABI: vtable pointer first,
 * slots in declaration order, no destructor slot since none is declared). */
#define STDMETHOD(method) virtual HRESULT STDMETHODCALLTYPE method
#define STDMETHOD_(type, method) virtual type STDMETHODCALLTYPE method
#define PURE = 0
#define THIS_
#define THIS void
#define DECLARE_INTERFACE(iface) struct iface
#define DECLARE_INTERFACE_(iface, base) struct iface : public base
#else
/* C: `struct iface { const struct ifaceVtbl *lpVtbl; }`; the body that follows the macro is
 * the vtable struct, each method a function pointer taking `INTERFACE *This` first. */
#define STDMETHOD(method) HRESULT (STDMETHODCALLTYPE *method)
#define STDMETHOD_(type, method) type (STDMETHODCALLTYPE *method)
#define PURE
#define THIS_ INTERFACE *This,
#define THIS INTERFACE *This
#define DECLARE_INTERFACE(iface)                                     \
    typedef struct iface { const struct iface##Vtbl *lpVtbl; } iface; \
    typedef struct iface##Vtbl iface##Vtbl;                           \
    struct iface##Vtbl
#define DECLARE_INTERFACE_(iface, base) DECLARE_INTERFACE(iface)
#endif

#undef INTERFACE
#define INTERFACE IUnknown
DECLARE_INTERFACE(IUnknown)
{
    STDMETHOD(QueryInterface)(THIS_ REFIID riid, void **object) PURE;
    STDMETHOD_(ULONG, AddRef)(THIS) PURE;
    STDMETHOD_(ULONG, Release)(THIS) PURE;
};
#undef INTERFACE
typedef IUnknown *LPUNKNOWN;

DEFINE_GUID(IID_IUnknown, 0x00000000, 0x0000, 0x0000,
        0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46);

#if !defined(__cplusplus) || defined(CINTERFACE)
#define IUnknown_QueryInterface(p, a, b) (p)->lpVtbl->QueryInterface(p, a, b)
#define IUnknown_AddRef(p) (p)->lpVtbl->AddRef(p)
#define IUnknown_Release(p) (p)->lpVtbl->Release(p)
#else
#define IUnknown_QueryInterface(p, a, b) (p)->QueryInterface(a, b)
#define IUnknown_AddRef(p) (p)->AddRef()
#define IUnknown_Release(p) (p)->Release()
#endif

#endif /* D3D9_WGPU_OBJBASE_H */
