//! The C ABI's headers as C and C++ programs see them: `capi/include/` plus Debian's
//! mingw-w64 D3D9 headers, with the project's compile line.
//!
//! Rules: `tests/c/compile_only.c` (COBJMACROS) and `tests/c/compile_only.cpp` (the C++
//! interfaces) build warning-free against libd3d9 and run to a clean exit; `tests/c/layout.c`
//! prints exactly `tests/c/layout.expected`, the struct layout the Rust mirrors follow, and
//! `d3d9::types` has exactly that layout; `d3d9::vtbl`'s tables list `d3d9.h`'s methods in
//! its order.
#![cfg(unix)]

mod support;

use std::path::Path;

use support::{build_and_run, manifest_dir, Lang, MINGW_INCLUDE};

#[test]
fn c_and_cpp_programs_build_and_run() {
    build_and_run(Lang::C, "compile_only.c");
    build_and_run(Lang::Cpp, "compile_only.cpp");
}

#[test]
fn layout_probe_matches_expected() {
    let printed = build_and_run(Lang::C, "layout.c");
    let expected = std::fs::read_to_string(manifest_dir().join("tests/c/layout.expected"))
        .expect("tests/c/layout.expected");
    let differ: Vec<String> = printed
        .lines()
        .zip(expected.lines())
        .filter(|(p, e)| p != e)
        .map(|(p, e)| format!("printed `{p}`, expected `{e}`"))
        .collect();
    assert!(
        differ.is_empty() && printed.lines().count() == expected.lines().count(),
        "layout.c and layout.expected differ ({} vs {} lines):\n{}",
        printed.lines().count(),
        expected.lines().count(),
        differ.join("\n")
    );
}

/// The interfaces whose vtables the library lays out (`d3d9::vtbl`), by the header's name.
fn vtables() -> Vec<(&'static str, &'static [&'static str])> {
    use d3d9::vtbl::*;
    vec![
        ("IDirect3D9", IDirect3D9Vtbl::METHODS),
        ("IDirect3DDevice9", IDirect3DDevice9Vtbl::METHODS),
        ("IDirect3DSwapChain9", IDirect3DSwapChain9Vtbl::METHODS),
        ("IDirect3DSurface9", IDirect3DSurface9Vtbl::METHODS),
        ("IDirect3DVolume9", IDirect3DVolume9Vtbl::METHODS),
        (
            "IDirect3DVertexBuffer9",
            IDirect3DVertexBuffer9Vtbl::METHODS,
        ),
        ("IDirect3DIndexBuffer9", IDirect3DIndexBuffer9Vtbl::METHODS),
        ("IDirect3DTexture9", IDirect3DTexture9Vtbl::METHODS),
        ("IDirect3DCubeTexture9", IDirect3DCubeTexture9Vtbl::METHODS),
        (
            "IDirect3DVolumeTexture9",
            IDirect3DVolumeTexture9Vtbl::METHODS,
        ),
        (
            "IDirect3DVertexDeclaration9",
            IDirect3DVertexDeclaration9Vtbl::METHODS,
        ),
        (
            "IDirect3DVertexShader9",
            IDirect3DVertexShader9Vtbl::METHODS,
        ),
        ("IDirect3DPixelShader9", IDirect3DPixelShader9Vtbl::METHODS),
        ("IDirect3DStateBlock9", IDirect3DStateBlock9Vtbl::METHODS),
        ("IDirect3DQuery9", IDirect3DQuery9Vtbl::METHODS),
    ]
}

/// Each `DECLARE_INTERFACE_(Name, Base)` block of `d3d9.h`: the interface, its base and its
/// `STDMETHOD` / `STDMETHOD_` names in declaration (slot) order.
fn header_interfaces(header: &str) -> Vec<(String, String, Vec<String>)> {
    const DECLARE: &str = "DECLARE_INTERFACE_(";
    let mut interfaces = Vec::new();
    let mut rest = header;
    while let Some(start) = rest.find(DECLARE) {
        rest = &rest[start + DECLARE.len()..];
        let close = rest.find(')').expect("DECLARE_INTERFACE_( without )");
        let (name, base) = rest[..close].split_once(',').expect("interface, base");
        let open = rest.find('{').expect("interface body");
        let end = rest.find("};").expect("end of the interface body");
        let methods = rest[open..end]
            .lines()
            .filter_map(|line| {
                let line = line.trim();
                let inner = if let Some(r) = line.strip_prefix("STDMETHOD_(") {
                    // STDMETHOD_(type, Name)(...)
                    r.split_once(')')?.0.rsplit_once(',')?.1
                } else {
                    line.strip_prefix("STDMETHOD(")?.split_once(')')?.0
                };
                Some(inner.trim().to_string())
            })
            .collect();
        interfaces.push((name.trim().to_string(), base.trim().to_string(), methods));
        rest = &rest[end..];
    }
    interfaces
}

/// Rule: every vtable the library hands out lists the header's methods in the header's
/// order (IUnknown's three first), so no slot can drift; the base interfaces without a
/// vtable of their own (`IDirect3DResource9`, `IDirect3DBaseTexture9`) begin each derived
/// one. The header is Debian's mingw-w64 `d3d9.h`, the one C programs compile against.
#[test]
fn vtables_follow_the_header_method_order() {
    let header = std::fs::read_to_string(Path::new(MINGW_INCLUDE).join("d3d9.h"))
        .expect("/usr/share/mingw-w64/include/d3d9.h (apt-get install mingw-w64-common)");
    let parsed = header_interfaces(&header);
    let find = |name: &str| {
        parsed
            .iter()
            .find(|(n, _, _)| n == name)
            .unwrap_or_else(|| panic!("d3d9.h declares no {name}"))
    };
    let mut checked = 0;
    for (name, methods) in vtables() {
        let (_, base, declared) = find(name);
        assert_eq!(
            &declared[..3],
            ["QueryInterface", "AddRef", "Release"],
            "{name}: IUnknown's methods first"
        );
        assert_eq!(
            methods, declared,
            "{name}: d3d9::vtbl's methods (left) differ from d3d9.h's (right)"
        );
        if base != "IUnknown" {
            let (_, _, base_methods) = find(base);
            assert!(
                declared.starts_with(base_methods),
                "{name} does not begin with its base {base}"
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 15);
    assert_eq!(
        find("IDirect3DDevice9").2.len(),
        119,
        "IDirect3DDevice9's method count"
    );
    // Every non-Ex interface of the header is either laid out or a base of one laid out.
    let laid_out: Vec<&str> = vtables().iter().map(|(n, _)| *n).collect();
    for (name, _, _) in &parsed {
        if !name.ends_with("Ex") {
            assert!(
                laid_out.contains(&name.as_str())
                    || ["IDirect3DResource9", "IDirect3DBaseTexture9"].contains(&name.as_str()),
                "d3d9.h's {name} has no vtable in d3d9::vtbl"
            );
        }
    }
}

/// One Rust mirror's layout: its size and its fields' offsets, by the header's names.
struct RustLayout {
    name: &'static str,
    size: usize,
    fields: Vec<(&'static str, usize)>,
}

/// The layouts of `d3d9::types`' structs (and `d3d9::guid::Guid`, the header's `GUID`).
macro_rules! rust_layouts {
    ($($name:ident { $($field:ident),* $(,)? })*) => {
        vec![$(RustLayout {
            name: stringify!($name),
            size: std::mem::size_of::<d3d9::types::$name>(),
            fields: vec![$((stringify!($field), std::mem::offset_of!(d3d9::types::$name, $field))),*],
        }),*]
    };
}

fn rust_layouts() -> Vec<RustLayout> {
    use d3d9::guid::Guid;
    let mut layouts = rust_layouts! {
        RECT { left, top, right, bottom }
        POINT { x, y }
        D3DRECT { x1, y1, x2, y2 }
        D3DPRESENT_PARAMETERS {
            BackBufferWidth, BackBufferHeight, BackBufferFormat, BackBufferCount,
            MultiSampleType, MultiSampleQuality, SwapEffect, hDeviceWindow, Windowed,
            EnableAutoDepthStencil, AutoDepthStencilFormat, Flags, FullScreen_RefreshRateInHz,
            PresentationInterval,
        }
        D3DSURFACE_DESC {
            Format, Type, Usage, Pool, MultiSampleType, MultiSampleQuality, Width, Height,
        }
        D3DVOLUME_DESC { Format, Type, Usage, Pool, Width, Height, Depth }
        D3DLOCKED_RECT { Pitch, pBits }
        D3DLOCKED_BOX { RowPitch, SlicePitch, pBits }
        D3DBOX { Left, Top, Right, Bottom, Front, Back }
        D3DVIEWPORT9 { X, Y, Width, Height, MinZ, MaxZ }
        D3DCOLORVALUE { r, g, b, a }
        D3DVECTOR { x, y, z }
        D3DMATERIAL9 { Diffuse, Ambient, Specular, Emissive, Power }
        D3DLIGHT9 {
            Type, Diffuse, Specular, Ambient, Position, Direction, Range, Falloff, Attenuation0,
            Attenuation1, Attenuation2, Theta, Phi,
        }
        D3DADAPTER_IDENTIFIER9 {
            Driver, Description, DeviceName, DriverVersion, VendorId, DeviceId, SubSysId,
            Revision, DeviceIdentifier, WHQLLevel,
        }
        D3DDISPLAYMODE { Width, Height, RefreshRate, Format }
        D3DVERTEXELEMENT9 { Stream, Offset, Type, Method, Usage, UsageIndex }
        D3DVERTEXBUFFER_DESC { Format, Type, Usage, Pool, Size, FVF }
        D3DINDEXBUFFER_DESC { Format, Type, Usage, Pool, Size }
        D3DCLIPSTATUS9 { ClipUnion, ClipIntersection }
        D3DRASTER_STATUS { InVBlank, ScanLine }
        D3DDEVICE_CREATION_PARAMETERS { AdapterOrdinal, DeviceType, hFocusWindow, BehaviorFlags }
        D3DGAMMARAMP { red, green, blue }
        PALETTEENTRY { peRed, peGreen, peBlue, peFlags }
        D3DVSHADERCAPS2_0 { Caps, DynamicFlowControlDepth, NumTemps, StaticFlowControlDepth }
        D3DPSHADERCAPS2_0 {
            Caps, DynamicFlowControlDepth, NumTemps, StaticFlowControlDepth, NumInstructionSlots,
        }
        D3DCAPS9 {
            DeviceType, AdapterOrdinal, Caps, Caps2, Caps3, PresentationIntervals, CursorCaps,
            DevCaps, PrimitiveMiscCaps, RasterCaps, ZCmpCaps, SrcBlendCaps, DestBlendCaps,
            AlphaCmpCaps, ShadeCaps, TextureCaps, TextureFilterCaps, CubeTextureFilterCaps,
            VolumeTextureFilterCaps, TextureAddressCaps, VolumeTextureAddressCaps, LineCaps,
            MaxTextureWidth, MaxTextureHeight, MaxVolumeExtent, MaxTextureRepeat,
            MaxTextureAspectRatio, MaxAnisotropy, MaxVertexW, GuardBandLeft, GuardBandTop,
            GuardBandRight, GuardBandBottom, ExtentsAdjust, StencilCaps, FVFCaps, TextureOpCaps,
            MaxTextureBlendStages, MaxSimultaneousTextures, VertexProcessingCaps, MaxActiveLights,
            MaxUserClipPlanes, MaxVertexBlendMatrices, MaxVertexBlendMatrixIndex, MaxPointSize,
            MaxPrimitiveCount, MaxVertexIndex, MaxStreams, MaxStreamStride, VertexShaderVersion,
            MaxVertexShaderConst, PixelShaderVersion, PixelShader1xMaxValue, DevCaps2,
            MaxNpatchTessellationLevel, Reserved5, MasterAdapterOrdinal, AdapterOrdinalInGroup,
            NumberOfAdaptersInGroup, DeclTypes, NumSimultaneousRTs, StretchRectFilterCaps,
            VS20Caps, PS20Caps, VertexTextureFilterCaps, MaxVShaderInstructionsExecuted,
            MaxPShaderInstructionsExecuted, MaxVertexShader30InstructionSlots,
            MaxPixelShader30InstructionSlots,
        }
    };
    // `GUID`'s fields are `Data1`..`Data4` in the header.
    layouts.push(RustLayout {
        name: "GUID",
        size: std::mem::size_of::<Guid>(),
        fields: vec![
            ("Data1", std::mem::offset_of!(Guid, data1)),
            ("Data2", std::mem::offset_of!(Guid, data2)),
            ("Data3", std::mem::offset_of!(Guid, data3)),
            ("Data4", std::mem::offset_of!(Guid, data4)),
        ],
    });
    // `D3DMATRIX` is `[[f32; 4]; 4]` here: `_RC` is row R, column C.
    let matrix = std::mem::size_of::<d3d9::types::D3DMATRIX>();
    let mut fields = vec![("m", 0)];
    for (i, name) in [
        "_11", "_12", "_13", "_14", "_21", "_22", "_23", "_24", "_31", "_32", "_33", "_34", "_41",
        "_42", "_43", "_44",
    ]
    .into_iter()
    .enumerate()
    {
        fields.push((name, i * std::mem::size_of::<f32>()));
    }
    layouts.push(RustLayout {
        name: "D3DMATRIX",
        size: matrix,
        fields,
    });
    layouts
}

/// Rule: every `#[repr(C)]` struct of `d3d9::types` (and `GUID`, `D3DMATRIX`) has exactly
/// the size and field offsets the header gives a C compiler, as `tests/c/layout.c` prints
/// them into `tests/c/layout.expected`: the same fields, none missing on either side; and
/// every struct `types.rs` declares is checked.
#[test]
fn rust_types_match_the_header_layout() {
    let expected = std::fs::read_to_string(manifest_dir().join("tests/c/layout.expected"))
        .expect("tests/c/layout.expected");
    let mut sizes = std::collections::BTreeMap::new();
    let mut offsets = std::collections::BTreeMap::<&str, Vec<(&str, usize)>>::new();
    for line in expected.lines() {
        let (key, value) = line.split_once(' ').expect("`NAME VALUE`");
        let value: usize = value.parse().expect("a number");
        match key.split_once('.') {
            Some((name, field)) => offsets.entry(name).or_default().push((field, value)),
            None => {
                sizes.insert(key, value);
            }
        }
    }
    let layouts = rust_layouts();
    let mut differ = Vec::new();
    for layout in &layouts {
        let name = layout.name;
        let Some(&size) = sizes.get(name) else {
            differ.push(format!("{name}: not in layout.expected"));
            continue;
        };
        if layout.size != size {
            differ.push(format!("{name}: Rust size {}, header {size}", layout.size));
        }
        let header = offsets.get(name).cloned().unwrap_or_default();
        for (field, offset) in &header {
            match layout.fields.iter().find(|(f, _)| f == field) {
                Some((_, rust)) if rust != offset => differ.push(format!(
                    "{name}.{field}: Rust offset {rust}, header {offset}"
                )),
                Some(_) => {}
                None => differ.push(format!("{name}.{field}: no such Rust field")),
            }
        }
        for (field, _) in &layout.fields {
            if !header.iter().any(|(f, _)| f == field) {
                differ.push(format!("{name}.{field}: not in the header's layout"));
            }
        }
    }
    assert!(differ.is_empty(), "layouts differ:\n{}", differ.join("\n"));
    // Every struct of types.rs is among those checked.
    let source =
        std::fs::read_to_string(manifest_dir().join("src/types.rs")).expect("src/types.rs");
    let declared: Vec<&str> = source
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub struct "))
        .filter_map(|l| l.split([' ', '{', '(']).next())
        .collect();
    assert_eq!(declared.len(), 27, "types.rs's structs: {declared:?}");
    for name in declared {
        assert!(
            layouts.iter().any(|l| l.name == name),
            "types.rs declares {name}, which no layout check covers"
        );
    }
}
