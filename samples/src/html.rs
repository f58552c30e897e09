//! `index.html` of the gallery: for each scene its picture, its D3D9 calls and each
//! shader's disassembly beside the WGSL the translator makes of it (the shader checked
//! against the default caps and translated on its own, before the device pairs it with a
//! declaration and the other stage); then the C samples' pictures beside their Rust twins.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use d3d9_translator::asm::{assemble, disassemble};
use d3d9_translator::bytecode::Stage;
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::lift::{
    translate_pixel_shader, translate_vertex_shader, PixelShaderOptions, VertexShaderOptions,
};

use crate::c_samples::C_SAMPLES;
use crate::scenes::SCENES;

/// Why the page could not be made.
#[derive(Debug, thiserror::Error)]
pub enum HtmlError {
    #[error("shader of scene {scene:?}: {reason}")]
    Shader { scene: &'static str, reason: String },
    #[error("writing {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// One shader as the page shows it: its disassembly and its WGSL.
pub struct ShaderText {
    pub disassembly: String,
    pub wgsl: String,
}

/// Assembles, disassembles, checks and translates one shader's assembly text.
pub fn shader_text(asm: &str) -> Result<ShaderText, String> {
    let program = assemble(asm).map_err(|e| e.to_string())?;
    let disassembly = disassemble(&program);
    let stage = program.stage();
    let checked = check(&program, stage, &DeviceCaps::default()).map_err(|e| e.to_string())?;
    let translated = match stage {
        Stage::Vertex => translate_vertex_shader(&checked, &VertexShaderOptions::default()),
        Stage::Pixel => translate_pixel_shader(&checked, &PixelShaderOptions::default()),
    }
    .map_err(|e| e.to_string())?;
    let wgsl = translated.wgsl().map_err(|e| e.to_string())?;
    Ok(ShaderText { disassembly, wgsl })
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

const STYLE: &str = "body{font-family:sans-serif;background:#222;color:#ddd;margin:2em}
section{border-top:1px solid #555;padding:1em 0}
img{border:1px solid #555}
pre{background:#111;padding:.6em;overflow:auto;font-size:12px;max-height:40em}
.pair{display:flex;gap:1em}.pair>div{flex:1;min-width:0}
a{color:#9cf}";

/// The page's HTML: every scene of [`SCENES`], and the C samples whose pictures exist in
/// `out`.
pub fn index_html(out: &Path) -> Result<String, HtmlError> {
    let mut page = String::new();
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>d3d9 samples</title>\
         <style>{STYLE}</style></head><body>\n<h1>Direct3D 9 samples on wgpu</h1>\n<ul>\n"
    );
    for scene in SCENES {
        let _ = writeln!(
            page,
            "<li><a href=\"#{0}\">{0}</a>: {1}</li>",
            scene.name,
            escape(scene.description)
        );
    }
    page.push_str("</ul>\n");
    for scene in SCENES {
        let _ = write!(
            page,
            "<section id=\"{0}\"><h2>{0}</h2><p>{1}</p>\n<img src=\"{0}.png\" alt=\"{0}\" \
             width=\"640\" height=\"480\">\n<h3>D3D9 calls</h3><pre>{2}</pre>\n",
            scene.name,
            escape(scene.description),
            escape(scene.calls)
        );
        for asm in scene.shaders {
            let text = shader_text(asm).map_err(|reason| HtmlError::Shader {
                scene: scene.name,
                reason,
            })?;
            let _ = writeln!(
                page,
                "<div class=\"pair\"><div><h3>Disassembly</h3><pre>{}</pre></div>\
                 <div><h3>WGSL</h3><pre>{}</pre></div></div>",
                escape(&text.disassembly),
                escape(&text.wgsl)
            );
        }
        page.push_str("</section>\n");
    }
    page.push_str("<section id=\"c\"><h2>C samples</h2>\n");
    let mut any = false;
    for sample in C_SAMPLES {
        let picture = format!("c_{}.png", sample.name);
        if out.join(&picture).is_file() {
            any = true;
            let _ = write!(
                page,
                "<h3>samples/c/{0}.c</h3><p>The same program as <a href=\"#{0}\">{0}</a>, in C \
                 against libd3d9.</p>\n<img src=\"{1}\" alt=\"c_{0}\" width=\"640\" \
                 height=\"480\">\n",
                sample.name, picture
            );
        }
    }
    if !any {
        page.push_str(
            "<p>Not rendered in this run: build libd3d9.so first \
             (<code>cargo build --release -p d3d9-capi</code>).</p>\n",
        );
    }
    page.push_str("</section>\n</body></html>\n");
    Ok(page)
}

/// Writes [`index_html`] to `out/index.html`.
pub fn write_index(out: &Path) -> Result<PathBuf, HtmlError> {
    let path = out.join("index.html");
    let page = index_html(out)?;
    std::fs::write(&path, page).map_err(|source| HtmlError::Io {
        path: path.clone(),
        source,
    })?;
    Ok(path)
}
