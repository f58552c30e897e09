//! `d3d9-translate decl (--fvf 0xHEX | --elements FILE | --dx8 FILE) [--shader FILE]
//! [--stride N]... [--instance STREAM]... [--software] [--json]`: a vertex declaration's
//! elements, its FVF or why there is none, its DX8 form or why not, and, with a vertex shader,
//! the wgpu vertex buffer layouts and the input fetch of every shader input.

use crate::io::{print, read_bytes, read_program, CliError};
use d3d9_translator::decl::{
    bind_program, FetchSource, StreamFrequency, StreamSource, VertexDeclaration, VertexProcessing,
};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Arguments of `decl`.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("source").required(true).args(["fvf", "elements", "dx8"])))]
pub struct Args {
    /// An FVF code (`0x152` or decimal), as passed to SetFVF.
    #[arg(long, value_parser = parse_u32)]
    fvf: Option<u32>,
    /// Raw `D3DVERTEXELEMENT9` bytes ending in `D3DDECL_END`; `-` reads stdin.
    #[arg(long)]
    elements: Option<PathBuf>,
    /// Raw DX8 declaration tokens (little-endian u32) ending in `D3DVSD_END`; `-` reads stdin.
    #[arg(long)]
    dx8: Option<PathBuf>,
    /// Vertex shader bytecode to bind the declaration to.
    #[arg(long)]
    shader: Option<PathBuf>,
    /// Stride of stream 0, 1, ... in order; streams not given use their packed vertex size.
    #[arg(long)]
    stride: Vec<u32>,
    /// A stream holding instance data (`D3DSTREAMSOURCE_INSTANCEDATA | 1`).
    #[arg(long)]
    instance: Vec<u16>,
    /// Software vertex processing: a shader input without an element fails the draw.
    #[arg(long)]
    software: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

fn parse_u32(s: &str) -> Result<u32, String> {
    let r = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16),
        None => s.parse(),
    };
    r.map_err(|e| format!("{s}: {e}"))
}

fn input_error(path: &Path, message: String) -> CliError {
    CliError::Input {
        path: path.display().to_string(),
        message,
    }
}

pub fn run(args: &Args) -> Result<(), CliError> {
    let (decl, constants) = if let Some(fvf) = args.fvf {
        let d = VertexDeclaration::from_fvf(fvf)
            .map_err(|e| input_error(Path::new("--fvf"), e.to_string()))?;
        (d, None)
    } else if let Some(path) = &args.elements {
        let bytes = read_bytes(path)?;
        (
            VertexDeclaration::from_bytes(&bytes).map_err(|e| input_error(path, e.to_string()))?,
            None,
        )
    } else if let Some(path) = &args.dx8 {
        let bytes = read_bytes(path)?;
        if !bytes.len().is_multiple_of(4) {
            return Err(input_error(
                path,
                format!("{} bytes is not a whole number of tokens", bytes.len()),
            ));
        }
        let tokens: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let (d, c) =
            VertexDeclaration::from_dx8(&tokens).map_err(|e| input_error(path, e.to_string()))?;
        (d, Some(c))
    } else {
        return Err(input_error(
            Path::new("decl"),
            "one of --fvf, --elements, --dx8 is required".into(),
        ));
    };

    let elements: Vec<Value> = decl
        .elements()
        .iter()
        .map(|e| {
            json!({
                "stream": e.stream, "offset": e.offset, "type": e.ty.name(), "method": e.method.name(),
                "usage": e.usage.name(), "usage_index": e.usage_index, "semantic": e.semantic().to_string(),
            })
        })
        .collect();
    let mut out = json!({
        "elements": elements,
        "pretransformed": decl.is_pretransformed(),
        "streams": decl.streams().iter().map(|&s| json!({"stream": s, "vertex_size": decl.stream_size(s)})).collect::<Vec<_>>(),
    });
    match decl.fvf() {
        Ok(fvf) => out["fvf"] = json!(format!("{fvf:#x}")),
        Err(reason) => out["fvf_error"] = json!(reason.to_string()),
    }
    match decl.dx8_tokens() {
        Ok(tokens) => {
            out["dx8"] = json!(tokens
                .iter()
                .map(|t| format!("{t:#010x}"))
                .collect::<Vec<_>>())
        }
        Err(reason) => out["dx8_error"] = json!(reason.to_string()),
    }
    if let Some(constants) = constants {
        out["dx8_constants"] = json!(constants
            .iter()
            .map(|c| json!({"address": c.address, "values": c.values}))
            .collect::<Vec<_>>());
    }
    if let Some(path) = &args.shader {
        let program = read_program(path)?;
        let streams: Vec<StreamSource> = (0..16u16)
            .map(|s| StreamSource {
                stride: args
                    .stride
                    .get(usize::from(s))
                    .copied()
                    .unwrap_or_else(|| decl.stream_size(s)),
                frequency: if args.instance.contains(&s) {
                    StreamFrequency::InstanceData(1)
                } else {
                    StreamFrequency::Vertex
                },
            })
            .collect();
        let mode = if args.software {
            VertexProcessing::Software
        } else {
            VertexProcessing::Hardware
        };
        let binding = bind_program(&decl, &program, &streams, mode)
            .map_err(|e| input_error(path, e.to_string()))?;
        out["layouts"] = json!(binding
            .streams
            .iter()
            .map(|l| json!({
                "stream": l.stream,
                "array_stride": l.array_stride,
                "step_mode": format!("{:?}", l.step_mode),
                "attributes": l.attributes.iter().map(|a| json!({
                    "shader_location": a.shader_location, "offset": a.offset, "format": format!("{:?}", a.format),
                })).collect::<Vec<_>>(),
            }))
            .collect::<Vec<_>>());
        out["inputs"] = json!(binding
            .inputs
            .iter()
            .map(|i| {
                let mut v = json!({"register": i.fetch.register, "semantic": i.semantic.to_string(), "element": i.element});
                match i.fetch.source {
                    FetchSource::Missing => v["fetch"] = json!("missing (reads 0, 0, 0, 0)"),
                    FetchSource::Attribute { location, format, conversion } => {
                        v["fetch"] = json!({"location": location, "format": format!("{format:?}"), "conversion": format!("{conversion:?}")})
                    }
                }
                v
            })
            .collect::<Vec<_>>());
    }
    if args.json {
        let text = serde_json::to_string_pretty(&out).unwrap_or_default();
        print(&format!("{text}\n"))
    } else {
        print(&summary(&decl, &out))
    }
}

/// The readable form of the JSON report.
fn summary(decl: &VertexDeclaration, out: &Value) -> String {
    let mut s = String::new();
    for (i, e) in decl.elements().iter().enumerate() {
        let _ = writeln!(s, "element {i}: {e}");
    }
    let field = |ok: &str, err: &str| match (out.get(ok), out.get(err)) {
        (Some(v), _) => v.to_string(),
        (None, Some(e)) => format!("none: {}", e.as_str().unwrap_or_default()),
        _ => String::new(),
    };
    let _ = writeln!(s, "fvf: {}", field("fvf", "fvf_error"));
    let _ = writeln!(s, "dx8: {}", field("dx8", "dx8_error"));
    if decl.is_pretransformed() {
        let _ = writeln!(s, "pretransformed: the vertex shader is not run");
    }
    for key in ["layouts", "inputs"] {
        if let Some(Value::Array(items)) = out.get(key) {
            for item in items {
                let _ = writeln!(s, "{}: {item}", &key[..key.len() - 1]);
            }
        }
    }
    s
}
