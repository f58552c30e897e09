//! The fixed-function vertex stage, generated per [`VertexKey`] as a vs_3_0 program for the
//! draw's declaration and translated like an application's shader (as wined3d compiles its
//! fixed-function description to shader model 1–3 bytecode): the translator brings the
//! declaration's fetch conversions, the link with the pixel stage, user clip planes, the
//! half-pixel fix-up and point expansion.
//!
//! The key holds what changes the code (light types, vertex blending, texture coordinate
//! sources and transform flags, fog mode, material sources); every number (matrices, light
//! and material colours, positions, fog distances) is a float constant of the layout in
//! `constants`, so that moving a light or changing a matrix never generates a new stage.
//!
//! The equations (D3D9's fixed-function vertex pipeline as Windows runs it; wined3d and DXVK
//! agree) are written on each part below; `lighting` has the per-light terms.

use std::fmt::Write as _;

use d3d9_translator::bytecode::Usage;
use d3d9_translator::decl::{DeclType, VertexDeclaration, VertexElement};

use super::super::state::{FogMode, Viewport};
use super::constants as c;
use super::lighting::LightType;

/// `D3DMATERIALCOLORSOURCE` after `D3DRS_COLORVERTEX`: where a lit colour's material term
/// comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum MaterialSource {
    /// `D3DMCS_MATERIAL` (or `COLORVERTEX` off, or the vertex lacks the colour).
    Material,
    /// `D3DMCS_COLOR1`: the vertex's diffuse colour.
    Color1,
    /// `D3DMCS_COLOR2`: the vertex's specular colour.
    Color2,
}

/// What lighting changes in the code.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct LightingKey {
    /// The active lights' types, in constant order.
    pub(crate) lights: Vec<LightType>,
    /// `D3DRS_LOCALVIEWER`.
    pub(crate) local_viewer: bool,
    /// `D3DRS_SPECULARENABLE`: COLOR1 is the lit specular colour (else the vertex's).
    pub(crate) specular: bool,
    /// Diffuse, ambient, specular and emissive sources.
    pub(crate) sources: [MaterialSource; 4],
}

/// `D3DRS_VERTEXBLEND` with `D3DRS_INDEXEDVERTEXBLENDENABLE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum VertexBlend {
    /// `D3DVBF_DISABLE`: `D3DTS_WORLD` alone.
    None,
    /// `D3DVBF_1WEIGHTS`..`3WEIGHTS` (1–3 blend weights, one matrix more) and `0WEIGHTS` (0:
    /// one matrix of weight 1); `indexed`: the matrices are `D3DTS_WORLDMATRIX(index)` of
    /// the vertex's BLENDINDICES, else `D3DTS_WORLDMATRIX(0..=weights)`.
    Weights { weights: u8, indexed: bool },
    /// `D3DVBF_TWEENING`: position and normal are `lerp(POSITION0, POSITION1,
    /// D3DRS_TWEENFACTOR)` (NORMAL0/1 likewise).
    Tween,
}

/// Vertex fog: the FOG output's factor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct VertexFog {
    /// `D3DRS_FOGVERTEXMODE`; NONE takes the specular alpha.
    pub(crate) mode: FogMode,
    /// `D3DRS_RANGEFOGENABLE`: the distance is |eye position| instead of |eye z|.
    pub(crate) range: bool,
}

/// What the generated vertex stage depends on, besides the declaration.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct VertexKey {
    /// POSITIONT declarations: the viewport (x, y, width, height) screen coordinates map
    /// to; nothing else of the key applies but the texture coordinate indices.
    pub(crate) viewport: Option<[u32; 4]>,
    /// `D3DRS_LIGHTING` with the lights; `None`: the vertex colours pass through.
    pub(crate) lighting: Option<LightingKey>,
    pub(crate) blend: VertexBlend,
    /// `D3DRS_NORMALIZENORMALS`.
    pub(crate) normalize: bool,
    /// Per texture coordinate output n: stage n's `D3DTSS_TEXCOORDINDEX` and
    /// `D3DTSS_TEXTURETRANSFORMFLAGS`.
    pub(crate) texcoords: [(u32, u32); 8],
    /// Vertex fog (`D3DRS_FOGENABLE` with table fog NONE).
    pub(crate) fog: Option<VertexFog>,
}

/// The outputs the pixel stage needs besides position and colours.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct VertexOutputs {
    /// Texture coordinate sets (bit n: TEXCOORDn).
    pub(crate) texcoords: u8,
    /// The eye-space position as POSITION1 (fixed-function point scaling).
    pub(crate) eye: bool,
    /// Other semantics a pixel shader reads (ps_3_0 `dcl_normal`, `dcl_fog`, ...): the
    /// declaration's element of that semantic passes through unchanged, as D3D9 hands
    /// vertex data to the pixel shader by semantic (Wine's pretransformed_varying_test).
    pub(crate) passthrough: Vec<(Usage, u8)>,
}

/// The generated program (vs_3_0 assembly), the declaration it reads (POSITIONT read as
/// POSITION) and whether its constants are software vertex processing's 8192 (indexed
/// vertex blending's 256 matrices).
pub(crate) struct VertexProgram {
    pub(crate) text: String,
    pub(crate) declaration: VertexDeclaration,
    pub(crate) software_constants: bool,
}

/// `D3DTTFF_PROJECTED`.
const PROJECTED: u32 = 256;
/// Texture coordinate generation modes (`D3DTSS_TCI_*` >> 16).
const TCI_PASSTHRU: u32 = 0;
const TCI_CAMERASPACENORMAL: u32 = 1;
const TCI_CAMERASPACEPOSITION: u32 = 2;
const TCI_CAMERASPACEREFLECTIONVECTOR: u32 = 3;
const TCI_SPHEREMAP: u32 = 4;
/// Literal registers: `r31` = (0, 1, 0.5, 2), `r30` = (4, 1020, −log2 e, 255).
const LITERALS: &str = "def c240, 0.0, 1.0, 0.5, 2.0\n";
const LANES: [&str; 4] = ["x", "y", "z", "w"];

/// The vertex stage of `key` for `declaration`.
pub(crate) fn vertex_program(
    declaration: &VertexDeclaration,
    key: &VertexKey,
    outputs: VertexOutputs,
) -> Result<VertexProgram, String> {
    let elements: Vec<VertexElement> = declaration
        .elements()
        .iter()
        .map(|e| {
            let mut e = *e;
            if e.usage == Usage::PositionT {
                e.usage = Usage::Position;
            }
            e
        })
        .collect();
    let rewritten = VertexDeclaration::from_elements(&elements)
        .map_err(|e| format!("fixed-function declaration: {e}"))?;
    let mut g = Generator {
        elements: &elements,
        text: String::from("vs_3_0\n") + LITERALS,
        dcls: String::from("dcl_position o0\n"),
        body: String::from("mov r31, c240\nmov r30, c241\n"),
        next_output: 1,
    };
    let log2e = std::f32::consts::LOG2_E;
    let _ = writeln!(g.text, "def c241, 4.0, 1020.0, {:?}, 255.0", -log2e);
    for (i, e) in elements.iter().enumerate() {
        let _ = writeln!(g.dcls, "dcl_{}{} v{i}", e.usage.name(), e.usage_index);
    }
    let position = g
        .find(Usage::Position, 0)
        .ok_or("fixed-function vertex stage without a position")?;
    for (usage, r) in [(Usage::Color, 20), (Usage::Color, 21)] {
        let index = r - 20;
        if let Some(v) = g.find(usage, index) {
            g.line(format!("mov r{r}, v{v}"));
        }
    }
    let software_constants = matches!(key.blend, VertexBlend::Weights { indexed: true, .. });
    match key.viewport {
        Some(viewport) => g.pretransformed(position, viewport),
        None => {
            g.transform(position, key)?;
            if let Some(lighting) = &key.lighting {
                g.lighting(lighting)?;
            }
        }
    }
    g.colours(key);
    if outputs.eye && key.viewport.is_none() {
        let o = g.output("position1")?;
        g.line(format!("mov o{o}, r2"));
    }
    for n in 0..8 {
        if outputs.texcoords & (1 << n) != 0 {
            g.texcoord(n, key)?;
        }
    }
    if let Some(fog) = key.fog {
        g.fog(fog, key.viewport.is_some())?;
    }
    for &(usage, index) in &outputs.passthrough {
        let computed = match usage {
            Usage::Color | Usage::Position | Usage::PSize => true,
            Usage::TexCoord => index < 8,
            Usage::Fog => key.fog.is_some(),
            _ => false,
        };
        if let Some(v) = g.find(usage, index).filter(|_| !computed) {
            let o = g.output(&format!("{}{index}", usage.name()))?;
            g.line(format!("mov o{o}, v{v}"));
        }
    }
    if let Some(v) = g.find(Usage::PSize, 0) {
        let o = g.output("psize0")?;
        g.line(format!("mov o{o}, v{v}"));
    }
    Ok(VertexProgram {
        text: g.text + &g.dcls + &g.body,
        declaration: rewritten,
        software_constants,
    })
}

/// Registers: `r0`/`r1` object position/normal, `r2` eye position, `r3` eye normal,
/// `r10`–`r12` light sums, `r20`/`r21` vertex colours, `r30`/`r31` literals.
struct Generator<'a> {
    elements: &'a [VertexElement],
    text: String,
    dcls: String,
    body: String,
    next_output: u32,
}

impl Generator<'_> {
    fn line(&mut self, line: impl AsRef<str>) {
        self.body += line.as_ref();
        self.body.push('\n');
    }

    fn find(&self, usage: Usage, index: u8) -> Option<usize> {
        self.elements
            .iter()
            .position(|e| e.usage == usage && e.usage_index == index)
    }

    /// A new output register declared with `semantic` (e.g. `texcoord3`).
    fn output(&mut self, semantic: &str) -> Result<u32, String> {
        self.output_masked(semantic, "")
    }

    /// [`Generator::output`] with a write mask (`.x`).
    fn output_masked(&mut self, semantic: &str, mask: &str) -> Result<u32, String> {
        let o = self.next_output;
        if o > 11 {
            return Err(format!(
                "more than 12 fixed-function vertex outputs (at {semantic})"
            ));
        }
        self.next_output += 1;
        let _ = writeln!(self.dcls, "dcl_{semantic} o{o}{mask}");
        Ok(o)
    }

    /// POSITIONT (render-target pixel coordinates; the viewport only clips): w = 1/rhw (1
    /// for an rhw of 0),
    /// clip ((x − vx)·2/vw − 1, 1 − (y − vy)·2/vh, z, 1) · w, so that interpolation is
    /// perspective-correct with 1/rhw as D3D9 does it.
    fn pretransformed(&mut self, p: usize, [x, y, width, height]: [u32; 4]) {
        let viewport = Viewport {
            x,
            y,
            width,
            height,
            min_z: 0.0,
            max_z: 1.0,
        };
        let (w, h) = (viewport.width.max(1) as f32, viewport.height.max(1) as f32);
        let (x0, y0) = (viewport.x as f32, viewport.y as f32);
        let _ = writeln!(
            self.text,
            "def c252, {:?}, {:?}, {:?}, {:?}",
            2.0 / w,
            -2.0 / h,
            -1.0 - 2.0 * x0 / w,
            1.0 + 2.0 * y0 / h
        );
        // An rhw of 0 counts as 1 (wined3d and DXVK; Wine's test_table_fog_zw draws it).
        self.line(format!(
            "rcp r0.w, v{p}.w\nabs r5.x, v{p}.w\nslt r5.y, r31.x, r5.x\nadd r5.z, r31.y, -r5.y\n\
             mul r0.w, r0.w, r5.y\nadd r0.w, r0.w, r5.z\n\
             mad r1.xy, v{p}.xy, c252.xy, c252.zw\nmov r1.z, v{p}.z\nmov r1.w, r31.y\nmul o0, r1, r0.w"
        ));
    }

    /// Object space (w always 1) to eye (`r2`) and clip space (`o0`), normals to eye space
    /// (`r3`):
    /// - no blending: clip = v · (World · View · Projection), e = v · World · View, n = n ·
    ///   N with N the upper 3×3 of the transposed inverse of World · View (`constants`);
    /// - blending with weights w0..wk−1 and wk = 1 − Σ: e = Σ wi · (v · World_i · View),
    ///   n = Σ wi · (n · (World_i · View)₃ₓ₃), clip = e · Projection;
    /// - tweening first lerps POSITION0/1 and NORMAL0/1 by `D3DRS_TWEENFACTOR`;
    /// - `D3DRS_NORMALIZENORMALS`: n / |n| (a zero normal stays zero).
    fn transform(&mut self, p: usize, key: &VertexKey) -> Result<(), String> {
        let normal = self.find(Usage::Normal, 0);
        // The input w is ignored: 1 (Windows, in Wine's test_ffp_w).
        self.line(format!("mov r0, v{p}\nmov r0.w, r31.y"));
        match normal {
            Some(n) => self.line(format!("mov r1, v{n}")),
            None => self.line("mov r1, r31.x"),
        }
        if key.blend == VertexBlend::Tween {
            let tween = c::MISC;
            if let Some(p1) = self.find(Usage::Position, 1) {
                self.line(format!(
                    "mov r5, v{p1}\nmov r5.w, r31.y\nadd r5, r5, -r0\nmad r0, r5, c{tween}.x, r0"
                ));
            }
            if let (Some(_), Some(n1)) = (normal, self.find(Usage::Normal, 1)) {
                self.line(format!(
                    "mov r5, v{n1}\nadd r5, r5, -r1\nmad r1, r5, c{tween}.x, r1"
                ));
            }
        }
        match key.blend {
            VertexBlend::Weights { weights, indexed } => self.blend(weights, indexed)?,
            VertexBlend::None | VertexBlend::Tween => {
                for (lane, col) in LANES.iter().zip(c::WORLD_VIEW_PROJECTION..) {
                    self.line(format!("dp4 o0.{lane}, r0, c{col}"));
                }
                for (lane, col) in LANES.iter().zip(c::WORLD_VIEW..) {
                    self.line(format!("dp4 r2.{lane}, r0, c{col}"));
                }
                for (lane, col) in LANES.iter().take(3).zip(c::NORMAL_MATRIX..) {
                    self.line(format!("dp3 r3.{lane}, r1, c{col}"));
                }
                self.line("mov r3.w, r31.x");
            }
        }
        if key.normalize && normal.is_some() {
            self.line("dp3 r8.x, r3, r3\nrsq r8.x, r8.x\nmul r3.xyz, r3, r8.x");
        }
        Ok(())
    }

    /// Vertex blending (see [`Generator::transform`]); indexed matrices are read relative to
    /// `a0.x` from [`c::INDEXED_WORLD_VIEW`], 4 registers each.
    fn blend(&mut self, weights: u8, indexed: bool) -> Result<(), String> {
        let k = usize::from(weights.min(3));
        match self.find(Usage::BlendWeight, 0) {
            Some(w) => self.line(format!("mov r5, v{w}")),
            None => self.line("mov r5, r31.x"),
        }
        self.line("mov r6.x, r31.y");
        for lane in LANES.iter().take(k) {
            self.line(format!("add r6.x, r6.x, -r5.{lane}"));
        }
        if indexed {
            match self.find(Usage::BlendIndices, 0) {
                // D3DCOLOR indices arrive as 0..1: × 255 × 4 registers per matrix.
                Some(i) => {
                    let scale = match self.elements.get(i).map(|e| e.ty) {
                        Some(DeclType::D3DColor | DeclType::UByte4N) => "r30.y",
                        _ => "r30.x",
                    };
                    self.line(format!("mul r9, v{i}, {scale}"));
                }
                None => self.line("mov r9, r31.x"),
            }
        }
        self.line("mov r2, r31.x\nmov r3, r31.x");
        for (i, lane) in LANES.iter().enumerate().take(k + 1) {
            let weight = if i < k {
                format!("r5.{lane}")
            } else {
                "r6.x".to_string()
            };
            let column = |col: usize| -> String {
                if indexed {
                    format!("c[a0.x + {}]", c::INDEXED_WORLD_VIEW + col)
                } else {
                    format!("c{}", c::BLEND_WORLD_VIEW[i] + col)
                }
            };
            if indexed {
                self.line(format!("mova a0.x, r9.{lane}"));
            }
            for (col, lane) in LANES.iter().enumerate() {
                self.line(format!("dp4 r7.{lane}, r0, {}", column(col)));
            }
            self.line(format!("mad r2, r7, {weight}, r2"));
            for (col, lane) in LANES.iter().take(3).enumerate() {
                self.line(format!("dp3 r8.{lane}, r1, {}", column(col)));
            }
            self.line(format!("mad r3.xyz, r8, {weight}, r3"));
        }
        for (lane, col) in LANES.iter().zip(c::PROJECTION..) {
            self.line(format!("dp4 o0.{lane}, r2, c{col}"));
        }
        Ok(())
    }

    /// The material term `source` of material register `material`: its register name.
    fn source(&self, source: MaterialSource, material: usize) -> String {
        let vertex = |index: u8, r: u32| self.find(Usage::Color, index).map(|_| format!("r{r}"));
        match source {
            MaterialSource::Color1 => vertex(0, 20),
            MaterialSource::Color2 => vertex(1, 21),
            MaterialSource::Material => None,
        }
        .unwrap_or_else(|| format!("c{material}"))
    }

    /// D3D9's lighting equation with the active lights (terms per light in
    /// [`Generator::light`]):
    /// - COLOR0.rgb = Emissive + Ambient × (`D3DRS_AMBIENT` + Σ ambient_i·att_i)
    ///   + Diffuse × Σ diffuse_i·att_i·max(N·L_i, 0), COLOR0.a = Diffuse.a;
    /// - COLOR1 = Specular × Σ specular_i·att_i·(N·H_i)^Power where N·L_i > 0 and N·H_i > 0,
    ///   with `D3DRS_SPECULARENABLE`;
    ///
    /// both clamped to [0, 1]; Diffuse, Ambient, Specular and Emissive are the material's
    /// colours or the vertex's (`D3DRS_*MATERIALSOURCE` with `D3DRS_COLORVERTEX`).
    fn lighting(&mut self, key: &LightingKey) -> Result<(), String> {
        let has_normal = self.find(Usage::Normal, 0).is_some();
        self.line(format!(
            "mov r10, c{}\nmov r11, r31.x\nmov r12, r31.x",
            c::AMBIENT
        ));
        if key.local_viewer && key.specular {
            // The normalized eye position (the view vector is its negation).
            self.line("dp3 r19.x, r2, r2\nrsq r19.x, r19.x\nmul r19.xyz, r2, r19.x");
        }
        for (i, ty) in key.lights.iter().enumerate() {
            self.light(i, *ty, has_normal, key)?;
        }
        let [diffuse, ambient, specular, emissive] = key.sources;
        let d = self.source(diffuse, c::MATERIAL_DIFFUSE);
        let a = self.source(ambient, c::MATERIAL_AMBIENT);
        let s = self.source(specular, c::MATERIAL_SPECULAR);
        let e = self.source(emissive, c::MATERIAL_EMISSIVE);
        self.line(format!(
            "mov r13, {e}\nmov r14, {a}\nmad r13.xyz, r14, r10, r13\nmov r14, {d}\nmad r13.xyz, r14, r11, r13\nmov r13.w, r14.w\nmov_sat r28, r13"
        ));
        if key.specular {
            self.line(format!("mov r14, {s}\nmul_sat r29, r14, r12"));
        }
        Ok(())
    }

    /// One light's terms, constants at [`c::light`]`(i)`:
    /// - point and spot: L = normalize(position − e), d = |position − e|, att = 1/(att0 +
    ///   att1·d + att2·d²) within `range` (0 beyond); a spot light multiplies att by 1 where
    ///   ρ = −L·direction > cos(θ/2), 0 where ρ ≤ cos(φ/2), ((ρ − cos(φ/2)) / (cos(θ/2) −
    ///   cos(φ/2)))^falloff between;
    /// - directional: L = −direction, att = 1;
    /// - H = normalize(L − normalize(e)) with `D3DRS_LOCALVIEWER`, else normalize(L − (0, 0,
    ///   1)).
    ///
    /// Without a normal only the ambient term applies.
    fn light(
        &mut self,
        i: usize,
        ty: LightType,
        has_normal: bool,
        key: &LightingKey,
    ) -> Result<(), String> {
        let l = c::light(i);
        let (diffuse, specular, ambient, position, direction, attenuation, spot) =
            (l, l + 1, l + 2, l + 3, l + 4, l + 5, l + 6);
        match ty {
            LightType::Directional => {
                self.line(format!("mov r13.xyz, -c{direction}\nmov r15.w, r31.y"));
            }
            LightType::Point | LightType::Spot => {
                self.line(format!(
                    "add r13, c{position}, -r2\ndp3 r14.x, r13, r13\nrsq r14.y, r14.x\nmul r14.z, r14.x, r14.y\nmul r13.xyz, r13, r14.y\n\
                     mov r15.x, r31.y\nmov r15.y, r14.z\nmov r15.z, r14.x\ndp3 r15.w, r15, c{attenuation}.yzww\nrcp r15.w, r15.w\n\
                     sge r16.x, c{attenuation}.x, r14.z\nmul r15.w, r15.w, r16.x"
                ));
                if ty == LightType::Spot {
                    self.line(format!(
                        "dp3 r16.y, -r13, c{direction}\nadd r16.z, r16.y, -c{spot}.y\nmul_sat r16.z, r16.z, c{spot}.w\n\
                         pow r16.w, r16.z, c{spot}.z\nslt r16.x, c{spot}.y, r16.y\nmul r16.w, r16.w, r16.x\nmul r15.w, r15.w, r16.w"
                    ));
                }
            }
        }
        self.line(format!("mad r10.xyz, c{ambient}, r15.w, r10"));
        if !has_normal {
            return Ok(());
        }
        self.line(format!(
            "dp3_sat r16.x, r3, r13\nmul r16.y, r16.x, r15.w\nmad r11.xyz, c{diffuse}, r16.y, r11"
        ));
        if key.specular {
            if key.local_viewer {
                self.line("add r17.xyz, r13, -r19");
            } else {
                self.line("add r17.xyz, r13, -r31.xxy");
            }
            self.line(format!(
                "dp3 r18.x, r17, r17\nrsq r18.x, r18.x\nmul r17.xyz, r17, r18.x\ndp3_sat r18.y, r3, r17\n\
                 pow r18.z, r18.y, c{}.x\nslt r18.w, r31.x, r16.x\nmul r18.z, r18.z, r18.w\nslt r18.w, r31.x, r18.y\n\
                 mul r18.z, r18.z, r18.w\nmul r18.z, r18.z, r15.w\nmad r12, c{specular}, r18.z, r12",
                c::MATERIAL_POWER
            ));
        }
        Ok(())
    }

    /// COLOR0 and COLOR1: lit (`r28`, `r29`) or the vertex's (white and (0, 0, 0, 0) without
    /// one); COLOR1 is the vertex's unless lighting computes a specular colour.
    fn colours(&mut self, key: &VertexKey) {
        let lit = key.lighting.as_ref().filter(|_| key.viewport.is_none());
        let has0 = self.find(Usage::Color, 0).is_some();
        let has1 = self.find(Usage::Color, 1).is_some();
        let colour0 = match (lit, has0) {
            (Some(_), _) => "r28",
            (None, true) => "r20",
            (None, false) => "r31.y",
        };
        let colour1 = match (lit.is_some_and(|l| l.specular), has1) {
            (true, _) => "r29",
            (false, true) => "r21",
            (false, false) => "r31.x",
        };
        for (index, value) in [colour0, colour1].into_iter().enumerate() {
            let o = self.next_output;
            self.next_output += 1;
            let _ = writeln!(self.dcls, "dcl_color{index} o{o}");
            self.line(format!("mov o{o}, {value}"));
        }
    }

    /// Texture coordinate output n from stage n's `D3DTSS_TEXCOORDINDEX` (set in the low
    /// word, generation in the high word) and `D3DTSS_TEXTURETRANSFORMFLAGS`:
    /// - the attribute: PASSTHRU the vertex's set, CAMERASPACENORMAL n, CAMERASPACEPOSITION
    ///   e, CAMERASPACEREFLECTIONVECTOR r = I − 2(n·I)n with I = normalize(e), SPHEREMAP
    ///   (r.x/m + ½, r.y/m + ½, 0, 1) with m = 2·|r − (0, 0, 1)| (Windows, in Wine's
    ///   test_generated_texcoords; OpenGL's sphere map adds (0, 0, 1));
    /// - COUNT2–COUNT4: the attribute, with 1 in its first missing component and 0 after,
    ///   times `D3DTS_TEXTUREn`; components from COUNT on are 0; with PROJECTED (COUNT2,
    ///   COUNT3) w is the last counted component;
    /// - otherwise (DISABLE, COUNT1, other values): the attribute as it is, missing
    ///   components 0; with PROJECTED w is its last component (what Windows gives: Wine's
    ///   test_texture_transform_flags).
    ///
    /// POSITIONT vertices pass the set through (missing components (0, 0, 0, 1)).
    fn texcoord(&mut self, n: usize, key: &VertexKey) -> Result<(), String> {
        let (tci, flags) = key.texcoords[n];
        let set = (tci & 0xffff) as u8;
        let generation = tci >> 16;
        let count = flags & !PROJECTED;
        let projected = flags & PROJECTED != 0;
        let pretransformed = key.viewport.is_some();
        let transform = (2..=4).contains(&count) && !pretransformed;
        let one_or_zero = if transform { "r31.y" } else { "r31.x" };
        let components = match generation {
            _ if pretransformed => {
                let Some(v) = self.find(Usage::TexCoord, set) else {
                    return Ok(());
                };
                let o = self.output(&format!("texcoord{n}"))?;
                self.line(format!("mov o{o}, v{v}"));
                return Ok(());
            }
            TCI_PASSTHRU => {
                let Some(v) = self.find(Usage::TexCoord, set) else {
                    return Ok(());
                };
                let components = self
                    .elements
                    .get(v)
                    .and_then(|e| e.ty.info())
                    .map_or(4, |i| usize::from(i.components));
                self.line(format!("mov r22, v{v}"));
                for (c, lane) in LANES.iter().enumerate().skip(components) {
                    let value = if c == components {
                        one_or_zero
                    } else {
                        "r31.x"
                    };
                    self.line(format!("mov r22.{lane}, {value}"));
                }
                components
            }
            TCI_CAMERASPACENORMAL => {
                self.line(format!("mov r22.xyz, r3\nmov r22.w, {one_or_zero}"));
                3
            }
            TCI_CAMERASPACEPOSITION => {
                self.line(format!("mov r22.xyz, r2\nmov r22.w, {one_or_zero}"));
                3
            }
            TCI_CAMERASPACEREFLECTIONVECTOR | TCI_SPHEREMAP => {
                self.line(
                    "dp3 r23.x, r2, r2\nrsq r23.x, r23.x\nmul r23.xyz, r2, r23.x\ndp3 r23.w, r3, r23\n\
                     add r23.w, r23.w, r23.w\nmad r22.xyz, r3, -r23.w, r23",
                );
                if generation == TCI_SPHEREMAP {
                    self.line(
                        "add r24.xyz, r22, -r31.xxy\ndp3 r24.x, r24, r24\nrsq r24.x, r24.x\nmul r24.x, r24.x, r31.z\n\
                         mad r22.xy, r22, r24.x, r31.z\nmov r22.z, r31.x\nmov r22.w, r31.y",
                    );
                    4
                } else {
                    self.line(format!("mov r22.w, {one_or_zero}"));
                    3
                }
            }
            other => return Err(format!("D3DTSS_TEXCOORDINDEX generation mode {other:#x}")),
        };
        let o = self.output(&format!("texcoord{n}"))?;
        if transform {
            let count = count as usize;
            for (lane, col) in LANES.iter().zip(c::texture_matrix(n)..) {
                self.line(format!("dp4 r25.{lane}, r22, c{col}"));
            }
            for lane in LANES.iter().skip(count) {
                self.line(format!("mov r25.{lane}, r31.x"));
            }
            if projected && count < 4 {
                self.line(format!("mov r25.w, r25.{}", LANES[count - 1]));
            }
            self.line(format!("mov o{o}, r25"));
        } else {
            if projected {
                let last = LANES[components.clamp(1, 4) - 1];
                self.line(format!("mov r22.w, r22.{last}"));
            }
            self.line(format!("mov o{o}, r22"));
        }
        Ok(())
    }

    /// The FOG output: LINEAR (end − d)·scale (scale = 1/(end − start), 0 when start = end:
    /// fully fogged, as Windows), EXP e^(−d·density), EXP2 e^(−(d·density)²), d = |e.z|, or
    /// |e| with `D3DRS_RANGEFOGENABLE`, or the vertex's FOG element; mode NONE and POSITIONT
    /// vertices take the specular alpha (0 without a specular colour).
    fn fog(&mut self, fog: VertexFog, pretransformed: bool) -> Result<(), String> {
        let o = self.output_masked("fog", ".x")?;
        let f = c::FOG;
        let specular_alpha = if self.find(Usage::Color, 1).is_some() {
            "r21.w"
        } else {
            "r31.x"
        };
        if pretransformed || fog.mode == FogMode::None {
            self.line(format!("mov o{o}.x, {specular_alpha}"));
            return Ok(());
        }
        match (self.find(Usage::Fog, 0), fog.range) {
            (Some(v), _) => self.line(format!("mov r26.x, v{v}.x")),
            (None, true) => {
                self.line("dp3 r26.x, r2, r2\nrsq r26.y, r26.x\nmul r26.x, r26.x, r26.y")
            }
            (None, false) => self.line("abs r26.x, r2.z"),
        }
        match fog.mode {
            FogMode::Linear => {
                self.line(format!("add r26.y, c{f}.y, -r26.x\nmul o{o}.x, r26.y, c{f}.z"));
            }
            FogMode::Exp => {
                self.line(format!("mul r26.y, r26.x, c{f}.w\nmul r26.y, r26.y, r30.z\nexp o{o}.x, r26.y"));
            }
            FogMode::Exp2 => self.line(format!(
                "mul r26.y, r26.x, c{f}.w\nmul r26.y, r26.y, r26.y\nmul r26.y, r26.y, r30.z\nexp o{o}.x, r26.y"
            )),
            FogMode::None => {}
        }
        Ok(())
    }
}
