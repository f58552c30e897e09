//! Pipelines specialised on the `i#` values a pair's loops read. D3D9 runs `loop aL, i#` and
//! `rep i#` with the count, start and step the application set last
//! (`SetVertexShaderConstantI`, `SetPixelShaderConstantI`); the translation reads them from
//! the constants uniform, or, in a stage module whose loop overrides are resolved to them
//! (`ShaderInterface::loop_constants`), has them compiled in, so the driver can unroll the
//! loop and fold `c[aL + n]`. A pair gets a specialised pipeline for each of its first
//! [`MAX_LOOP_VARIANTS`] distinct value sets; later sets draw with the generic pipeline
//! (constants unset: the uniform), so loop counts that change every draw do not build a
//! pipeline per draw. The constants ring carries `i#` for the generic pipeline either way.

use d3d9_translator::lift::ShaderInterface;

use super::super::pairing::{naga_module_with, ShaderPair};

/// The most value sets a pair has specialised pipelines for.
pub(crate) const MAX_LOOP_VARIANTS: usize = 8;

/// The interfaces of the pair's stages whose `i#` are the application's (vertex, pixel): not
/// the fixed-function stages, whose constants are the device's.
fn stages(pair: &ShaderPair) -> [Option<&ShaderInterface>; 2] {
    [
        Some(&pair.vertex_interface).filter(|_| !pair.fixed_function_vertex),
        pair.pixel_interface
            .as_ref()
            .filter(|_| !pair.fixed_function_pixel),
    ]
}

/// The pipeline key's loop values: x, y, z of each loop constant, vertex stage then pixel
/// stage, read from the stages' `i#` (`ints`: vertex, pixel). Empty, the generic pipeline,
/// where the pair has no loops over uniform `i#` or where `MAX_LOOP_VARIANTS` other value
/// sets already have pipelines.
pub(super) fn loop_values(pair: &ShaderPair, ints: [&[[i32; 4]]; 2]) -> Vec<i32> {
    let mut values = Vec::new();
    for (interface, ints) in stages(pair).into_iter().zip(ints) {
        for l in interface.into_iter().flat_map(|i| &i.loop_constants) {
            let v = ints.get(l.register as usize).copied().unwrap_or([0; 4]);
            values.extend_from_slice(&v[..3]);
        }
    }
    if values.is_empty() {
        return values;
    }
    let mut seen = pair
        .loop_variants
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if seen.contains(&values) {
        values
    } else if seen.len() < MAX_LOOP_VARIANTS {
        seen.push(values.clone());
        values
    } else {
        Vec::new()
    }
}

/// The stage modules (vertex, pixel) of the pipeline for the key's loop `values`: the pair's
/// own (the generic ones) where `values` is empty or names nothing of a stage, else the
/// stage's module with its loop overrides resolved to the values (`lift::resolve_overrides`:
/// naga 30's own override processing breaks some translations, so the device resolves them
/// and hands wgpu modules without overrides).
pub(super) fn stage_modules(
    device: &wgpu::Device,
    pair: &ShaderPair,
    values: &[i32],
) -> [wgpu::ShaderModule; 2] {
    let generic = [&pair.vertex_module, &pair.fragment_module];
    let mut rest = values.chunks_exact(3);
    let mut out = generic.map(Clone::clone);
    for (k, interface) in stages(pair).into_iter().enumerate() {
        let mut constants = Vec::new();
        for l in interface.into_iter().flat_map(|i| &i.loop_constants) {
            if let Some(v) = rest.next() {
                constants.extend(l.constants([v[0], v[1], v[2], 0]));
            }
        }
        if let (false, Some(module)) = (constants.is_empty(), &pair.loop_modules[k]) {
            out[k] = naga_module_with(device, module.clone(), &constants);
        }
    }
    out
}
