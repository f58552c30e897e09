//! One scene's D3D9 draw, made on a [`Device`] as a D3D9 application makes it:
//! `CreateVertexShader` (the assembly text assembled to tokens, checked by the device against
//! its caps), `CreateVertexDeclaration` or `SetFVF`, `CreateVertexBuffer` /
//! `CreateIndexBuffer`, `SetStreamSource`, `SetIndices`, `SetVertexShaderConstantF/I`,
//! `SetRenderState(D3DRS_CULLMODE)`, `Clear`, `DrawPrimitive` / `DrawIndexedPrimitive`, then
//! `GetRenderTargetData` of the back buffer. A draw with a pixel shader also makes
//! `CreatePixelShader`, `SetPixelShader` and `SetPixelShaderConstantF/I`; without one,
//! `SetPixelShader(NULL)` leaves D3D9's fixed-function pixel stage, which shows COLOR0.

use d3d9_backend::device::CullMode;
use d3d9_backend::device::{
    ClearFlags, DeclarationId, Device, DeviceError, DeviceParams, Format, IndexBufferId,
    PixelShaderId, PrimitiveType, RenderState, SurfaceData, VertexBufferId, VertexShaderId,
};
use d3d9_backend::Gpu;
use d3d9_translator::decl::VertexElement;

use crate::error::DrawError;
use crate::objects::Objects;

/// Width of every gallery image (the D3D9 SDK samples' 640x480 window).
pub const WIDTH: u32 = 640;
/// Height of every gallery image.
pub const HEIGHT: u32 = 480;

/// How the draw describes its vertices: `SetFVF` or `SetVertexDeclaration`.
#[derive(Clone, Debug)]
pub enum Declaration {
    /// `SetFVF(code)`.
    Fvf(u32),
    /// `CreateVertexDeclaration(elements)` + `SetVertexDeclaration`.
    Elements(Vec<VertexElement>),
}

/// One stage's `Set*ShaderConstantF` / `Set*ShaderConstantI` calls, in order (the vertex
/// shader's in [`SceneDraw::constants`], the pixel shader's in [`PixelShaderDraw`]).
#[derive(Clone, Debug, Default)]
pub struct Constants {
    float: Vec<(usize, Vec<[f32; 4]>)>,
    int: Vec<(usize, Vec<[i32; 4]>)>,
}

impl Constants {
    /// `SetVertexShaderConstantF(start, values, values.len())` (or `SetPixelShaderConstantF`).
    pub fn set_f(&mut self, start: usize, values: &[[f32; 4]]) -> &mut Self {
        self.float.push((start, values.to_vec()));
        self
    }

    /// `SetVertexShaderConstantI(start, values, values.len())` (or `SetPixelShaderConstantI`).
    pub fn set_i(&mut self, start: usize, values: &[[i32; 4]]) -> &mut Self {
        self.int.push((start, values.to_vec()));
        self
    }
}

/// A draw's pixel shader: `CreatePixelShader` of its assembly text, `SetPixelShader`, and
/// its `SetPixelShaderConstantF/I` calls of the frame.
#[derive(Clone, Debug)]
pub struct PixelShaderDraw {
    /// Pixel shader assembly text.
    pub shader: &'static str,
    pub constants: Constants,
}

/// Everything one D3D9 draw of a scene sets on the device.
#[derive(Clone, Debug)]
pub struct SceneDraw {
    /// Vertex shader assembly text (the source of `fxc /Fo`-style bytecode).
    pub shader: &'static str,
    pub declaration: Declaration,
    /// The bytes of stream 0 and its stride.
    pub stream: Vec<u8>,
    pub stride: u32,
    /// 16-bit indices of a triangle list; `None`: `DrawPrimitive` over `vertex_count`.
    pub indices: Option<Vec<u16>>,
    pub vertex_count: u32,
    pub constants: Constants,
    /// `None`: `SetPixelShader(NULL)`, D3D9's fixed-function pixel stage (COLOR0 as it is,
    /// with the default texture stages and no texture bound).
    pub pixel_shader: Option<PixelShaderDraw>,
    /// `D3DRS_CULLMODE`.
    pub cull: CullMode,
    /// `Clear(.., D3DCLEAR_TARGET, colour, ..)`: a D3DCOLOR, 0xAARRGGBB.
    pub clear: u32,
}

impl SceneDraw {
    /// `DrawIndexedPrimitive(D3DPT_TRIANGLELIST, ..)` over `vertices` in stream 0 (stride:
    /// the size of `V`) after `Clear` to `clear`, with D3D9's default `D3DCULL_CCW`.
    pub fn indexed_triangles<V: bytemuck::Pod>(
        shader: &'static str,
        declaration: Declaration,
        vertices: &[V],
        indices: Vec<u16>,
        constants: Constants,
        clear: u32,
    ) -> Self {
        SceneDraw {
            shader,
            declaration,
            stream: bytemuck::cast_slice(vertices).to_vec(),
            stride: std::mem::size_of::<V>() as u32,
            vertex_count: vertices.len() as u32,
            indices: Some(indices),
            constants,
            pixel_shader: None,
            cull: CullMode::Ccw,
            clear,
        }
    }

    /// The same draw with a pixel shader (`shader`: its assembly text) and its constants.
    pub fn with_pixel_shader(mut self, shader: &'static str, constants: Constants) -> Self {
        self.pixel_shader = Some(PixelShaderDraw { shader, constants });
        self
    }
}

/// The device a scene draws on: a fresh one (all state at D3D9's defaults) on `gpu`'s wgpu
/// device, with an A8R8G8B8 `WIDTH` x `HEIGHT` back buffer.
pub fn scene_device(gpu: &Gpu) -> Result<Device, DeviceError> {
    Device::from_wgpu(
        gpu.adapter().clone(),
        gpu.device().clone(),
        gpu.queue().clone(),
        DeviceParams {
            back_buffer: (WIDTH, HEIGHT, Format::A8R8G8B8),
            ..DeviceParams::default()
        },
    )
}

/// The objects a draw is made of, created once (`--window` draws them every frame) through
/// the [`Objects`] the programs use, which releases them.
#[derive(Debug)]
pub struct Prepared {
    objects: Objects,
    made: Option<Made>,
}

#[derive(Clone, Copy, Debug)]
struct Made {
    vertex_shader: VertexShaderId,
    pixel_shader: Option<PixelShaderId>,
    declaration: Option<DeclarationId>,
    vertices: VertexBufferId,
    indices: Option<IndexBufferId>,
}

impl Prepared {
    /// `CreateVertexShader`, `CreatePixelShader` if the draw has one, the declaration, and
    /// the buffers.
    pub fn new(device: &mut Device, draw: &SceneDraw) -> Result<Prepared, DrawError> {
        let mut objects = Objects::default();
        let vertex_shader = objects.vertex_shader(device, draw.shader)?;
        let pixel_shader = match &draw.pixel_shader {
            Some(pixel) => Some(objects.pixel_shader(device, pixel.shader)?),
            None => None,
        };
        let declaration = match &draw.declaration {
            Declaration::Fvf(_) => None,
            Declaration::Elements(elements) => Some(objects.declaration(device, elements)?),
        };
        let vertices = objects.vertex_buffer(device, &draw.stream)?;
        let indices = match &draw.indices {
            Some(indices) => Some(objects.index_buffer(device, indices)?),
            None => None,
        };
        Ok(Prepared {
            objects,
            made: Some(Made {
                vertex_shader,
                pixel_shader,
                declaration,
                vertices,
                indices,
            }),
        })
    }

    /// Unbinds and releases the buffers, the shaders and the declaration (as a D3D9
    /// application does before `Reset`, for the `D3DPOOL_DEFAULT` buffers at least).
    pub fn release(&mut self, device: &mut Device) -> Result<(), DrawError> {
        if self.made.take().is_some() {
            device.set_vertex_declaration(None)?;
            self.objects.release(device)?;
        }
        Ok(())
    }

    /// Sets everything `draw` sets (its constants of this frame included) on `device`,
    /// clears and draws into render target 0.
    pub fn draw(&self, device: &mut Device, draw: &SceneDraw) -> Result<(), DrawError> {
        let made = self.made.ok_or(DrawError::Released)?;
        match (&draw.declaration, made.declaration) {
            (Declaration::Fvf(code), _) => device.set_fvf(*code)?,
            (_, decl) => device.set_vertex_declaration(decl)?,
        }
        device.set_vertex_shader(Some(made.vertex_shader))?;
        device.set_pixel_shader(made.pixel_shader)?;
        device.set_stream_source(0, Some(made.vertices), 0, draw.stride)?;
        for (start, values) in &draw.constants.float {
            device.set_vertex_shader_constant_f(*start, values)?;
        }
        for (start, values) in &draw.constants.int {
            device.set_vertex_shader_constant_i(*start, values)?;
        }
        if let Some(pixel) = &draw.pixel_shader {
            for (start, values) in &pixel.constants.float {
                device.set_pixel_shader_constant_f(*start, values)?;
            }
            for (start, values) in &pixel.constants.int {
                device.set_pixel_shader_constant_i(*start, values)?;
            }
        }
        device.set_render_state(RenderState::CullMode(draw.cull))?;
        device.clear(&[], ClearFlags::TARGET, draw.clear, 1.0, 0)?;
        match (&draw.indices, made.indices) {
            (Some(list), Some(buffer)) => {
                if list.len() % 3 != 0 {
                    return Err(DrawError::Indices(list.len()));
                }
                let triangles =
                    u32::try_from(list.len() / 3).map_err(|_| DrawError::Indices(list.len()))?;
                device.set_indices(Some(buffer))?;
                device.draw_indexed_primitive(
                    PrimitiveType::TriangleList,
                    0,
                    0,
                    draw.vertex_count,
                    0,
                    triangles,
                )?;
            }
            _ => device.draw_primitive(PrimitiveType::TriangleList, 0, draw.vertex_count / 3)?,
        }
        Ok(())
    }
}

/// Makes the draw on `device` into its back buffer and reads the back buffer back.
pub fn render_draw(device: &mut Device, draw: &SceneDraw) -> Result<SurfaceData, DrawError> {
    Prepared::new(device, draw)?.draw(device, draw)?;
    Ok(device.get_render_target_data(device.back_buffer())?)
}
