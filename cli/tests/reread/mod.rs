//! Re-reading translated outputs with naga's own front ends (shared by the CLI tests).
#![allow(dead_code)]

fn validate(module: &naga::Module) -> Result<bool, String> {
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default(),
    )
    .validate(module)
    .map(|_| true)
    .map_err(|e| format!("{:?}", e.as_inner()))
}

/// Re-read `out` (written in `lang`) and validate it: `Ok(true)`. MSL and HLSL have no front
/// end here, so only their entry point is looked for; GLSL with a combined `sampler2D` cannot
/// be read by naga's GLSL front end (it takes separate textures and samplers): `Ok(false)`.
pub fn reread(lang: &str, out: &[u8]) -> Result<bool, String> {
    let text = || String::from_utf8(out.to_vec()).map_err(|e| e.to_string());
    match lang {
        "wgsl" => {
            let m = naga::front::wgsl::parse_str(&text()?).map_err(|e| e.to_string())?;
            validate(&m)
        }
        "spirv" => {
            let m = naga::front::spv::parse_u8_slice(out, &Default::default())
                .map_err(|e| e.to_string())?;
            validate(&m)
        }
        "glsl" => {
            // naga's GLSL front end does not implement the `invariant gl_Position;`
            // statement (NotImplemented("variable qualifier")): drop that one line.
            let text = text()?.replace("invariant gl_Position;\n", "");
            if text.contains(" uniform sampler") {
                return Ok(false);
            }
            // naga's GLSL back end names fragment outputs `_fs2p_location#`.
            let stage = if text.contains("_fs2p_") {
                naga::ShaderStage::Fragment
            } else {
                naga::ShaderStage::Vertex
            };
            let m = naga::front::glsl::Frontend::default()
                .parse(&naga::front::glsl::Options::from(stage), &text)
                .map_err(|e| format!("{e:?}"))?;
            validate(&m)
        }
        "msl" | "hlsl" => {
            let t = text()?;
            if t.contains("main") {
                Ok(false)
            } else {
                Err("no entry point in the output".into())
            }
        }
        other => Err(format!("unknown language {other}")),
    }
}
