//! The D3D9 fixed-function pixel stage in its default state, for draws made
//! with a vertex shader and no pixel shader.
//!
//! D3D9 rule: with no pixel shader the texture stages compute the pixel
//! colour. In the default state (stage 0 `COLOROP = MODULATE` of `TEXTURE`
//! and `CURRENT`, no texture bound, `D3DRS_SPECULARENABLE = FALSE`,
//! `D3DRS_FOGENABLE = FALSE`) the result is the interpolated diffuse colour:
//! the vertex shader's COLOR0 output (`oD0`), clamped to [0, 1]. Windows
//! drivers and Wine both give this, and Wine's visual tests rely on it
//! throughout. A vertex shader that never writes `oD0` gives the default
//! diffuse (1, 1, 1, 1).
//!
//! Texture stages, specular, fog and alpha test are not emulated here; a
//! draw that needs them must not use this stage.

use d3d9_backend::device::FIXED_FUNCTION_ENTRY_POINT;

/// WGSL of the default fixed-function pixel stage. `diffuse_location` is
/// the `@location` of the vertex shader's COLOR0 output (from the
/// translated shader's interface), or `None` when the vertex shader has no
/// COLOR0 output at all; the colour is then the D3D9 default (1, 1, 1, 1).
///
/// The input is a perspective-correct, centre-sampled `vec4<f32>`, which
/// is what the translator declares for colour outputs.
pub fn fixed_function_pixel_wgsl(diffuse_location: Option<u32>) -> String {
    match diffuse_location {
        Some(location) => format!(
            "// D3D9 fixed-function pixel stage (default state): the diffuse colour, clamped.\n\
             @fragment\n\
             fn {FIXED_FUNCTION_ENTRY_POINT}(@location({location}) diffuse: vec4<f32>) -> @location(0) vec4<f32> {{\n\
             \x20   return saturate(diffuse);\n\
             }}\n"
        ),
        None => format!(
            "// D3D9 fixed-function pixel stage (default state): no COLOR0 output, default diffuse.\n\
             @fragment\n\
             fn {FIXED_FUNCTION_ENTRY_POINT}() -> @location(0) vec4<f32> {{\n\
             \x20   return vec4<f32>(1.0, 1.0, 1.0, 1.0);\n\
             }}\n"
        ),
    }
}

#[cfg(test)]
#[allow(clippy::panic)] // a failing test prints the WGSL error
mod tests {
    use super::*;

    fn parses(source: &str) -> naga::Module {
        match naga::front::wgsl::parse_str(source) {
            Ok(module) => module,
            Err(e) => panic!("{}\n{source}", e.emit_to_string(source)),
        }
    }

    #[test]
    fn reads_and_clamps_the_diffuse_location() {
        let source = fixed_function_pixel_wgsl(Some(3));
        assert!(source.contains("@location(3) diffuse: vec4<f32>"));
        assert!(source.contains("saturate(diffuse)"));
        let module = parses(&source);
        assert_eq!(module.entry_points.len(), 1);
        assert_eq!(module.entry_points[0].name, FIXED_FUNCTION_ENTRY_POINT);
    }

    #[test]
    fn without_colour_output_writes_the_default_diffuse() {
        let source = fixed_function_pixel_wgsl(None);
        assert!(source.contains("vec4<f32>(1.0, 1.0, 1.0, 1.0)"));
        parses(&source);
    }
}
