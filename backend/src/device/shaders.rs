//! Vertex declarations and shaders: `CreateVertexDeclaration` (from `D3DVERTEXELEMENT9`s,
//! DX8 tokens or an FVF code), `CreateVertexShader` / `CreatePixelShader` (decoded and checked
//! against the device's caps) and their releases.

use super::*;

impl Device {
    // ---- vertex declarations -------------------------------------------------------------

    /// `CreateVertexDeclaration` from `D3DVERTEXELEMENT9`s (without the `D3DDECL_END`).
    pub fn create_vertex_declaration(
        &mut self,
        elements: &[VertexElement],
    ) -> Result<DeclarationId, DeviceError> {
        let call = "CreateVertexDeclaration";
        let decl = VertexDeclaration::from_elements(elements)
            .map_err(|source| DeviceError::Declaration { call, source })?;
        Ok(self.add_declaration(decl))
    }

    /// `CreateVertexDeclaration` from `D3DVERTEXELEMENT9` records as an application passes
    /// them (without the `D3DDECL_END`), validated as D3D9 validates them.
    pub fn create_vertex_declaration_raw(
        &mut self,
        elements: &[d3d9_translator::decl::RawElement],
    ) -> Result<DeclarationId, DeviceError> {
        let call = "CreateVertexDeclaration";
        let decl = VertexDeclaration::from_raw(elements)
            .map_err(|source| DeviceError::Declaration { call, source })?;
        Ok(self.add_declaration(decl))
    }

    /// `CreateVertexDeclaration` from a DX8 declaration token stream (`D3DVSD_*`); its
    /// `D3DVSD_CONST` values are returned for the caller to set as vertex shader constants.
    pub fn create_vertex_declaration_dx8(
        &mut self,
        tokens: &[u32],
    ) -> Result<(DeclarationId, Vec<d3d9_translator::decl::Dx8Constants>), DeviceError> {
        let call = "CreateVertexDeclaration (DX8 tokens)";
        let (decl, constants) = VertexDeclaration::from_dx8(tokens)
            .map_err(|source| DeviceError::Declaration { call, source })?;
        Ok((self.add_declaration(decl), constants))
    }

    /// A declaration made from an FVF code (what `SetFVF` installs).
    pub fn create_vertex_declaration_fvf(
        &mut self,
        fvf: u32,
    ) -> Result<DeclarationId, DeviceError> {
        if let Some(id) = self.fvf_declarations.get(&fvf) {
            return Ok(*id);
        }
        let call = "SetFVF";
        let decl = VertexDeclaration::from_fvf(fvf)
            .map_err(|source| DeviceError::Declaration { call, source })?;
        let id = self.add_declaration(decl);
        self.fvf_declarations.insert(fvf, id);
        Ok(id)
    }

    fn add_declaration(&mut self, decl: VertexDeclaration) -> DeclarationId {
        let id = DeclarationId(self.next_id());
        let decl = Arc::new(decl);
        self.declarations.insert(id, decl.clone());
        let content = || prebuild::Content::of(&decl.elements());
        self.prebuild_created(prebuild::Kind::Declaration, id.0, content);
        id
    }

    /// The elements of a declaration.
    pub fn declaration_elements(&self, id: DeclarationId) -> Option<&[VertexElement]> {
        self.declarations.get(&id).map(|d| d.elements())
    }

    // ---- shaders ----------------------------------------------------------------------------

    /// `CreateVertexShader`: the bytecode decoded and checked against the device's caps.
    pub fn create_vertex_shader(&mut self, tokens: &[u32]) -> Result<VertexShaderId, DeviceError> {
        let program = self.create_shader("CreateVertexShader", tokens, Stage::Vertex)?;
        let id = VertexShaderId(self.next_id());
        self.vertex_shaders.insert(id, program);
        let content = || prebuild::Content::of(&tokens);
        self.prebuild_created(prebuild::Kind::VertexShader, id.0, content);
        Ok(id)
    }

    /// `CreatePixelShader`: the bytecode decoded and checked against the device's caps.
    pub fn create_pixel_shader(&mut self, tokens: &[u32]) -> Result<PixelShaderId, DeviceError> {
        let program = self.create_shader("CreatePixelShader", tokens, Stage::Pixel)?;
        let id = PixelShaderId(self.next_id());
        self.pixel_shaders.insert(id, program);
        let content = || prebuild::Content::of(&tokens);
        self.prebuild_created(prebuild::Kind::PixelShader, id.0, content);
        Ok(id)
    }

    fn create_shader(
        &self,
        call: &'static str,
        tokens: &[u32],
        stage: Stage,
    ) -> Result<objects::ShaderObject, DeviceError> {
        let program = decode(tokens).map_err(|source| DeviceError::Decode { call, source })?;
        let checked = check(&program, stage, &self.params.caps)
            .map_err(|source| DeviceError::Check { call, source })?;
        Ok(Arc::new(checked))
    }

    /// `Release` of a vertex shader: its cached pairings are dropped with it.
    pub fn release_vertex_shader(&mut self, id: VertexShaderId) -> Result<(), DeviceError> {
        self.vertex_shaders.remove(&id).ok_or_else(|| {
            invalid(
                "Release",
                format!("{id:?} is not a vertex shader of this device"),
            )
        })?;
        if self.state.vertex_shader == Some(id) {
            self.state.vertex_shader = None;
        }
        self.pairs.remove_where(|k| k.names_vertex_shader(id));
        self.prebuild.forget(id.0, |k| k.names_vertex_shader(id));
        Ok(())
    }

    /// `Release` of a pixel shader.
    pub fn release_pixel_shader(&mut self, id: PixelShaderId) -> Result<(), DeviceError> {
        self.pixel_shaders.remove(&id).ok_or_else(|| {
            invalid(
                "Release",
                format!("{id:?} is not a pixel shader of this device"),
            )
        })?;
        if self.state.pixel_shader == Some(id) {
            self.state.pixel_shader = None;
        }
        self.pairs.remove_where(|k| k.names_pixel_shader(id));
        self.prebuild.forget(id.0, |k| k.names_pixel_shader(id));
        Ok(())
    }

    /// `Release` of a vertex declaration.
    pub fn release_vertex_declaration(&mut self, id: DeclarationId) -> Result<(), DeviceError> {
        self.declarations.remove(&id).ok_or_else(|| {
            invalid(
                "Release",
                format!("{id:?} is not a declaration of this device"),
            )
        })?;
        self.fvf_declarations.retain(|_, d| *d != id);
        if self.state.declaration == Some(id) {
            self.state.declaration = None;
        }
        self.pairs.remove_where(|k| k.declaration == id);
        self.prebuild.forget(id.0, |k| k.declaration == id);
        Ok(())
    }
}
