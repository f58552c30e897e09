//! The vertex declarations of Wine's d3d9 visual tests (`d3d9_visual.json`), created and bound
//! to the tests' vertex shaders with the locations and fetches D3D9 gives.
#![allow(clippy::panic)] // a test names the corpus entry it could not find

mod common;

use d3d9_translator::bytecode::{decode, Usage};
use d3d9_translator::decl::{
    bind_program, BindError, DeclType, FetchConversion, FetchSource, InputFetch, RawElement,
    StreamFrequency, StreamSource, VertexBinding, VertexDeclaration, VertexProcessing,
};
use d3d9_translator::signature::Semantic;
use std::collections::BTreeMap;
use wgpu_types::{VertexFormat, VertexStepMode};

struct Corpus {
    json: serde_json::Value,
}

impl Corpus {
    fn load() -> Corpus {
        Corpus {
            json: common::corpus("d3d9_visual.json"),
        }
    }

    fn shader(&self, function: &str, name: &str) -> d3d9_translator::bytecode::Program {
        let shaders = self.json["shaders"].as_array().expect("shaders");
        let s = shaders
            .iter()
            .find(|s| s["function"] == function && s["name"] == name)
            .unwrap_or_else(|| panic!("shader {function}/{name}"));
        let tokens: Vec<u32> = s["tokens"]
            .as_array()
            .expect("tokens")
            .iter()
            .map(|t| t.as_u64().expect("u32") as u32)
            .collect();
        decode(&tokens).expect("decodes")
    }

    /// Every `D3DVERTEXELEMENT9` array of a function, by name (arrays of arrays get `name[i]`).
    fn declarations(&self, function: &str) -> BTreeMap<String, Result<Vec<RawElement>, String>> {
        let mut out = BTreeMap::new();
        for a in self.json["functions"][function]["data_arrays"]
            .as_array()
            .expect("data_arrays")
        {
            let text = a["text"].as_str().expect("text");
            if !text.contains("D3DVERTEXELEMENT9") || text.contains("struct") {
                continue;
            }
            let name = a["name"].as_str().expect("name");
            let body = &text[text.find('=').expect("initialiser")..];
            let decls: Vec<&str> = body
                .split("D3DDECL_END()")
                .filter(|p| p.contains('{') && p.contains(','))
                .collect();
            for (i, part) in decls.iter().enumerate() {
                let key = if decls.len() == 1 {
                    name.to_string()
                } else {
                    format!("{name}[{i}]")
                };
                out.insert(key, parse_elements(part));
            }
        }
        out
    }
}

/// Parse `{stream, offset, D3DDECLTYPE_X, D3DDECLMETHOD_X, D3DDECLUSAGE_X, index}` records.
fn parse_elements(text: &str) -> Result<Vec<RawElement>, String> {
    let mut out = Vec::new();
    for record in text.split('{').skip(1) {
        let inner = record.split('}').next().unwrap_or("");
        let fields: Vec<&str> = inner.split(',').map(str::trim).collect();
        if fields.len() != 6 {
            continue;
        }
        let num = |s: &str| s.parse::<u16>().map_err(|_| format!("not a number: {s}"));
        let ty = DeclType::from_name(fields[2]).ok_or(format!("type expression: {}", fields[2]))?;
        let method = fields[3].strip_prefix("D3DDECLMETHOD_").ok_or("method")?;
        let usage = Usage::from_name(fields[4].strip_prefix("D3DDECLUSAGE_").ok_or("usage")?)
            .ok_or("usage name")?;
        assert_eq!(method, "DEFAULT");
        out.push(RawElement {
            stream: num(fields[0])?,
            offset: num(fields[1])?,
            ty: ty.raw(),
            method: 0,
            usage: usage.raw() as u8,
            usage_index: num(fields[5])? as u8,
        });
    }
    Ok(out)
}

fn create(corpus: &Corpus, function: &str, name: &str) -> VertexDeclaration {
    let raw = corpus
        .declarations(function)
        .remove(name)
        .unwrap_or_else(|| panic!("{function}/{name}"))
        .expect("parses");
    VertexDeclaration::from_raw(&raw).expect("CreateVertexDeclaration succeeds")
}

fn packed(decl: &VertexDeclaration) -> Vec<StreamSource> {
    (0..16)
        .map(|s| StreamSource {
            stride: decl.stream_size(s),
            frequency: StreamFrequency::Vertex,
        })
        .collect()
}

fn bind(
    corpus: &Corpus,
    function: &str,
    shader: &str,
    decl: &str,
    mode: VertexProcessing,
) -> Result<VertexBinding, BindError> {
    let d = create(corpus, function, decl);
    bind_program(&d, &corpus.shader(function, shader), &packed(&d), mode)
}

fn attr(register: u32, format: VertexFormat, conversion: FetchConversion) -> InputFetch {
    InputFetch {
        register,
        source: FetchSource::Attribute {
            location: register,
            format,
            conversion,
        },
    }
}

fn missing(register: u32) -> InputFetch {
    InputFetch {
        register,
        source: FetchSource::Missing,
    }
}

/// (location, offset) of each attribute of stream 0.
fn placement(b: &VertexBinding) -> Vec<(u32, u64)> {
    b.streams[0]
        .attributes
        .iter()
        .map(|a| (a.shader_location, a.offset))
        .collect()
}

#[test]
fn every_visual_test_declaration_is_created() {
    let corpus = Corpus::load();
    let functions = corpus.json["functions"].as_object().expect("functions");
    let (mut created, mut expressions) = (0, 0);
    for name in functions.keys() {
        for (decl, parsed) in corpus.declarations(name) {
            match parsed {
                Ok(raw) => {
                    let d = VertexDeclaration::from_raw(&raw)
                        .unwrap_or_else(|e| panic!("{name}/{decl}: {e}"));
                    assert_eq!(
                        VertexDeclaration::from_bytes(&d.to_bytes()).as_ref(),
                        Ok(&d)
                    );
                    created += 1;
                }
                // `D3DDECLTYPE_FLOAT1 + (attrib_count - 1)` in test_texture_transform_flags.
                Err(e) => {
                    assert!(e.starts_with("type expression"), "{name}/{decl}: {e}");
                    expressions += 1;
                }
            }
        }
    }
    // 28 arrays, texbem_test holding two declarations.
    assert_eq!((created, expressions), (29, 2));
}

#[test]
fn vshader_input_matches_by_semantic_not_position() {
    let corpus = Corpus::load();
    let f = "test_vshader_input";
    let hw = VertexProcessing::Hardware;
    let f32x4 = |r| attr(r, VertexFormat::Float32x4, FetchConversion::Float);
    for shader in [
        "swapped_shader_code_1",
        "swapped_shader_code_2",
        "swapped_shader_code_3",
    ] {
        // v0 = POSITION0 @0, v1 = TEXCOORD0, v2 = TEXCOORD1.
        let b = bind(&corpus, f, shader, "decl_elements_twotexcrd", hw).expect("binds");
        assert_eq!(
            b.fetches(),
            vec![
                attr(0, VertexFormat::Float32x3, FetchConversion::Float),
                f32x4(1),
                f32x4(2)
            ]
        );
        assert_eq!(placement(&b), vec![(0, 0), (1, 12), (2, 28)], "{shader}");
        assert_eq!(b.streams[0].array_stride, 44);
        let b = bind(&corpus, f, shader, "decl_elements_twotexcrd_rightorder", hw).expect("binds");
        assert_eq!(placement(&b), vec![(0, 0), (1, 28), (2, 12)], "{shader}");
        // TEXCOORD1 absent: v2 reads (0, 0, 0, 0).
        let b = bind(&corpus, f, shader, "decl_elements_onetexcrd", hw).expect("binds");
        assert_eq!(b.fetches()[2], missing(2));
        assert_eq!(placement(&b), vec![(0, 0), (1, 12)]);
        // TEXCOORD0 absent, TEXCOORD2 ignored.
        let b = bind(&corpus, f, shader, "decl_elements_twotexcrd_wrongidx", hw).expect("binds");
        assert_eq!(b.fetches()[1], missing(1));
        assert_eq!(placement(&b), vec![(0, 0), (2, 12)]);
        let sw = bind(
            &corpus,
            f,
            shader,
            "decl_elements_onetexcrd",
            VertexProcessing::Software,
        );
        assert_eq!(
            sw,
            Err(BindError::MissingInput {
                register: 2,
                semantic: Semantic::new(Usage::TexCoord, 1)
            })
        );
    }
    for shader in [
        "texcoord_color_shader_code_1",
        "texcoord_color_shader_code_2",
        "texcoord_color_shader_code_3",
    ] {
        let b = bind(&corpus, f, shader, "decl_elements_texcoord_color", hw).expect("binds");
        assert_eq!(
            b.fetches()[1],
            attr(1, VertexFormat::Unorm8x4Bgra, FetchConversion::Float)
        );
    }
    for shader in [
        "color_color_shader_code_1",
        "color_color_shader_code_2",
        "color_color_shader_code_3",
    ] {
        let fetch = |decl| bind(&corpus, f, shader, decl, hw).expect("binds").fetches()[1];
        assert_eq!(
            fetch("decl_elements_color_color"),
            attr(1, VertexFormat::Unorm8x4Bgra, FetchConversion::Float)
        );
        assert_eq!(
            fetch("decl_elements_color_ubyte"),
            attr(1, VertexFormat::Uint8x4, FetchConversion::UnsignedToFloat)
        );
        assert_eq!(fetch("decl_elements_color_float"), f32x4(1));
        assert_eq!(fetch("decl_elements_nocolor"), missing(1));
    }
}

#[test]
fn vshader_float16_reads_float16x4() {
    let corpus = Corpus::load();
    let b = bind(
        &corpus,
        "test_vshader_float16",
        "shader_code",
        "decl_elements",
        VertexProcessing::Hardware,
    )
    .expect("binds");
    assert_eq!(
        b.fetches()[1],
        attr(1, VertexFormat::Float16x4, FetchConversion::Float)
    );
    assert_eq!(placement(&b), vec![(0, 0), (1, 12)]);
    assert_eq!(b.streams[0].array_stride, 20);
}

#[test]
fn default_attribute_components_fetch_only_what_the_element_has() {
    let corpus = Corpus::load();
    let f = "test_default_attribute_components";
    // Missing components read (0, 0, 0, 1): wgpu fills them for a narrower float format.
    let cases = [
        ("vs_texcoord1_code", VertexFormat::Float32, 12),
        ("vs_texcoord2_code", VertexFormat::Float32x2, 16),
        ("vs_texcoord3_code", VertexFormat::Float32x3, 24),
        ("vs_color1_code", VertexFormat::Float32, 36),
        ("vs_color2_code", VertexFormat::Float32x2, 40),
        ("vs_color3_code", VertexFormat::Float32x3, 48),
    ];
    for (shader, format, offset) in cases {
        let b = bind(
            &corpus,
            f,
            shader,
            "decl_elements",
            VertexProcessing::Hardware,
        )
        .expect("binds");
        assert_eq!(
            b.fetches()[1],
            attr(1, format, FetchConversion::Float),
            "{shader}"
        );
        assert_eq!(placement(&b), vec![(0, 0), (1, offset)], "{shader}");
        assert_eq!(b.streams[0].array_stride, 60);
    }
}

#[test]
fn default_diffuse_reads_zero_without_an_element() {
    let corpus = Corpus::load();
    let f = "test_default_diffuse";
    let b = bind(
        &corpus,
        f,
        "vs_code",
        "decl_elements_no_diffuse",
        VertexProcessing::Hardware,
    )
    .expect("binds");
    assert_eq!(
        b.fetches(),
        vec![
            attr(0, VertexFormat::Float32x3, FetchConversion::Float),
            missing(1)
        ]
    );
    // The shader without a colour input ignores the declaration's colour element.
    let b = bind(
        &corpus,
        f,
        "vs_no_diffuse_code",
        "decl_elements_with_diffuse",
        VertexProcessing::Hardware,
    )
    .expect("binds");
    assert_eq!(placement(&b), vec![(0, 0)]);
    // COLOR0 on stream 1 with nothing bound there.
    let d = create(&corpus, f, "decl_elements_missing_diffuse");
    let only_stream0 = [StreamSource {
        stride: 12,
        frequency: StreamFrequency::Vertex,
    }];
    assert_eq!(
        bind_program(
            &d,
            &corpus.shader(f, "vs_code"),
            &only_stream0,
            VertexProcessing::Hardware
        ),
        Err(BindError::StreamNotSet {
            stream: 1,
            element: 1
        })
    );
}

#[test]
fn stream_test_instancing_layouts() {
    let corpus = Corpus::load();
    let d = create(&corpus, "stream_test", "decl");
    let streams = [
        StreamSource {
            stride: 12,
            frequency: StreamFrequency::from_raw(0x4000_0004),
        },
        StreamSource {
            stride: 16,
            frequency: StreamFrequency::from_raw(0x8000_0001),
        },
        StreamSource {
            stride: 12,
            frequency: StreamFrequency::from_raw(0x8000_0001),
        },
    ];
    let b = bind_program(
        &d,
        &corpus.shader("stream_test", "shader_code"),
        &streams,
        VertexProcessing::Hardware,
    )
    .expect("binds");
    let layouts: Vec<_> = b
        .streams
        .iter()
        .map(|s| {
            (
                s.stream,
                s.array_stride,
                s.step_mode,
                s.attributes
                    .iter()
                    .map(|a| a.shader_location)
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    assert_eq!(
        layouts,
        vec![
            (0, 12, VertexStepMode::Vertex, vec![0]),
            (1, 16, VertexStepMode::Instance, vec![1]),
            (2, 12, VertexStepMode::Instance, vec![2]),
        ]
    );
    // Instance data on stream 0 (Wine's case 9 puts colours there).
    let swapped = [streams[1], streams[0], streams[2]];
    let swapped = [
        StreamSource {
            stride: 16,
            ..swapped[0]
        },
        StreamSource {
            stride: 16,
            ..swapped[1]
        },
        swapped[2],
    ];
    let b = bind_program(
        &d,
        &corpus.shader("stream_test", "shader_code"),
        &swapped,
        VertexProcessing::Hardware,
    )
    .expect("binds");
    assert_eq!(b.streams[0].step_mode, VertexStepMode::Instance);
}

#[test]
fn position_index_binds_both_positions() {
    let corpus = Corpus::load();
    let b = bind(
        &corpus,
        "test_position_index",
        "vs_code",
        "decl_elements",
        VertexProcessing::Software,
    )
    .expect("binds");
    assert_eq!(placement(&b), vec![(0, 0), (1, 12)]);
}

#[test]
fn pretransformed_declaration_skips_the_shader() {
    let corpus = Corpus::load();
    let d = create(&corpus, "pretransformed_varying_test", "decl_elements");
    assert!(d.is_pretransformed());
    let shader = corpus.shader("test_vshader_input", "color_color_shader_code_2");
    let b = bind_program(&d, &shader, &packed(&d), VertexProcessing::Software).expect("binds");
    assert!(b.pretransformed);
    // The pass-through reads every element, input i at location i.
    assert_eq!(b.inputs.len(), 11);
    assert_eq!(b.inputs[0].semantic, Semantic::new(Usage::PositionT, 0));
    assert_eq!(
        b.fetches()[9],
        attr(9, VertexFormat::Unorm8x4Bgra, FetchConversion::Float)
    );
    assert_eq!(b.streams[0].array_stride, 152);
}
