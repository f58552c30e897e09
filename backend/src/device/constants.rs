//! D3D9's vertex- and pixel-shader constant registers, as the buffers a translated shader binds.
//!
//! An application sets `c#`, `i#` and `b#` with `SetVertexShaderConstantF/I/B`; the values
//! stay on the device across shaders. A translated shader names, in its
//! [`ShaderInterface`], the bindings it reads; [`VertexConstants::buffers`] fills them:
//! - `c#`: `array<vec4<f32>, N + 1>`, N = 256 (8192 under software vertex processing, in a
//!   read-only storage buffer). Element N is zero: the register out-of-range relative reads
//!   land on. The shader's `def c#` values are written over the application's values, because
//!   in D3D9 a `def` takes precedence over `SetVertexShaderConstantF` for that shader, and
//!   relative reads must see it too (direct reads are literals already).
//! - `i#`: `array<vec4<i32>, 16>` (2048 under software vertex processing), `defi` values over
//!   the application's.
//! - `b#`: one `u32`, bit n = `b#n` (hardware); under software vertex processing 2048 bits in
//!   `array<vec4<u32>, 16>`, `b#n` being bit `n % 32` of word `n / 32`, word w = element
//!   `w / 4`, component `w % 4`. `defb` values over the application's.
//! - the position fix-up `vec4<f32>` `(1/width, -1/height, 0, 0)`: D3D9 pixel centres lie on
//!   integer coordinates, half a pixel up-left of WebGPU's, so clip-space x moves right and y
//!   down by half a pixel (the shader adds `fixup.xy * position.w`); a caller that moves
//!   the viewport by half a pixel instead translates without the fix-up
//!   (`VertexShaderOptions::position_fixup` false), as the `Device` does off GL.

use d3d9_translator::decl::VertexProcessing;
use d3d9_translator::lift::interface::{
    BOOL_CONSTANTS, HW_FLOAT_CONSTANTS, INT_CONSTANTS, SW_BOOL_CONSTANTS, SW_FLOAT_CONSTANTS,
    SW_INT_CONSTANTS,
};
use d3d9_translator::lift::ShaderInterface;

/// The vertex-shader constant registers of one device, as `SetVertexShaderConstantF/I/B`
/// leave them. Registers past the ends are never read; writes past them are dropped.
#[derive(Clone, Debug, PartialEq)]
pub struct VertexConstants {
    /// `c0`…: 256 registers, 8192 under software vertex processing.
    pub floats: Vec<[f32; 4]>,
    /// `i0`…: 16 registers, 2048 under software vertex processing.
    pub ints: Vec<[i32; 4]>,
    /// `b0`…: 16 registers, 2048 under software vertex processing.
    pub bools: Vec<bool>,
    processing: VertexProcessing,
}

impl Default for VertexConstants {
    /// A hardware-vertex-processing device's constants, all zero / FALSE.
    fn default() -> Self {
        Self::new(VertexProcessing::Hardware)
    }
}

/// One buffer of constants for `@group(group) @binding(binding)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConstantBuffer {
    pub group: u32,
    pub binding: u32,
    /// A read-only storage buffer (software vertex processing's 8192 `c#`) rather than a
    /// uniform buffer.
    pub storage: bool,
    /// The bytes of the WGSL type, little-endian.
    pub data: Vec<u8>,
}

/// How much of the `c#` buffer a [`ConstantBuffer`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Extent {
    /// The whole WGSL type: every register and the zero register after them (what a buffer
    /// of its own must hold, and what sizes a binding).
    Full,
    /// Only the registers the shader reads (`ShaderInterface::float_constants_read`), where
    /// it reads none with a run-time index: what the constants ring copies for a draw (the
    /// rest of the binding keeps what it held: the shader never reads it).
    Read,
}

/// The shader and the constants disagree on the vertex processing mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the shader reads {shader} float constants, the device's constants are for {processing:?} \
     vertex processing ({device} registers)"
)]
pub struct ProcessingMismatch {
    pub shader: u32,
    pub device: u32,
    pub processing: VertexProcessing,
}

impl VertexConstants {
    /// All-zero / FALSE constants of a device created with `processing`
    /// (`D3DCREATE_HARDWARE_VERTEXPROCESSING` or `_SOFTWARE_`).
    pub fn new(processing: VertexProcessing) -> Self {
        let (floats, ints, bools) = Self::counts(processing);
        Self {
            floats: vec![[0.0; 4]; floats],
            ints: vec![[0; 4]; ints],
            bools: vec![false; bools],
            processing,
        }
    }

    /// The device's vertex processing mode.
    pub fn processing(&self) -> VertexProcessing {
        self.processing
    }

    /// Register counts `(c#, i#, b#)` of `processing`.
    fn counts(processing: VertexProcessing) -> (usize, usize, usize) {
        let (f, i, b) = match processing {
            VertexProcessing::Hardware => (HW_FLOAT_CONSTANTS, INT_CONSTANTS, BOOL_CONSTANTS),
            // A mixed device's shaders may use the software ranges.
            VertexProcessing::Software | VertexProcessing::Mixed => {
                (SW_FLOAT_CONSTANTS, SW_INT_CONSTANTS, SW_BOOL_CONSTANTS)
            }
        };
        (f as usize, i as usize, b as usize)
    }

    /// `SetVertexShaderConstantF(start, values, values.len())`.
    pub fn set_f(&mut self, start: usize, values: &[[f32; 4]]) -> &mut Self {
        write(&mut self.floats, start, values);
        self
    }

    /// `SetVertexShaderConstantI(start, values, values.len())`.
    pub fn set_i(&mut self, start: usize, values: &[[i32; 4]]) -> &mut Self {
        write(&mut self.ints, start, values);
        self
    }

    /// `SetVertexShaderConstantB(start, values, values.len())`.
    pub fn set_b(&mut self, start: usize, values: &[bool]) -> &mut Self {
        write(&mut self.bools, start, values);
        self
    }

    /// `c#register` (zero past the last register).
    pub fn f(&self, register: usize) -> [f32; 4] {
        self.floats.get(register).copied().unwrap_or([0.0; 4])
    }

    /// The buffers `interface` names, in the order float, int, bool, position fix-up (those
    /// the shader uses), filled from these constants with the shader's `def`s written over
    /// them; `target` is the viewport's (width, height) for the half-pixel fix-up.
    pub fn buffers(
        &self,
        interface: &ShaderInterface,
        target: (u32, u32),
    ) -> Result<Vec<ConstantBuffer>, ProcessingMismatch> {
        let (width, height) = target;
        self.buffers_with_fixup(
            interface,
            [1.0 / width as f32, -1.0 / height as f32, 0.0, 0.0],
        )
    }

    /// [`VertexConstants::buffers`] with the position fix-up given: the shader adds
    /// `fixup * position.w` to its position (x, y: the half-pixel offset; z: the depth bias).
    pub fn buffers_with_fixup(
        &self,
        interface: &ShaderInterface,
        fixup: [f32; 4],
    ) -> Result<Vec<ConstantBuffer>, ProcessingMismatch> {
        self.buffers_of(interface, fixup, Extent::Full)
    }

    /// The `c#` buffer's bytes of `extent` (as [`VertexConstants::buffers_of`] makes them)
    /// into `data`, its allocation reused: a draw whose float constants alone changed.
    pub(crate) fn float_bytes_into(
        &self,
        interface: &ShaderInterface,
        extent: Extent,
        data: &mut Vec<u8>,
    ) {
        let (float_count, _, _) = Self::counts(self.processing);
        float_bytes(&self.floats, float_count, interface, extent, data);
    }

    /// [`VertexConstants::buffers_with_fixup`] with `c#` of `extent`.
    pub(crate) fn buffers_of(
        &self,
        interface: &ShaderInterface,
        fixup: [f32; 4],
        extent: Extent,
    ) -> Result<Vec<ConstantBuffer>, ProcessingMismatch> {
        let (float_count, int_count, bool_count) = Self::counts(self.processing);
        if let Some(fc) = interface.float_constants {
            if fc.registers as usize != float_count {
                return Err(ProcessingMismatch {
                    shader: fc.registers,
                    device: float_count as u32,
                    processing: self.processing,
                });
            }
        }
        let counts = (float_count, int_count, bool_count);
        let mut out = register_buffers(
            &self.floats,
            &self.ints,
            &self.bools,
            counts,
            interface,
            extent,
        );
        if let Some(b) = interface.position_fixup {
            out.push(ConstantBuffer {
                group: b.group,
                binding: b.binding,
                storage: false,
                data: bytemuck::cast_slice(&fixup).to_vec(),
            });
        }
        Ok(out)
    }
}

/// The pixel-shader constant registers of one device, as `SetPixelShaderConstantF/I/B` leave
/// them: 224 `c#` (ps_3_0's count; ps_2_0 reads the first 32, ps_1_x the first 8), 16 `i#`,
/// 16 `b#`. Like the vertex side's, they stay on the device across shaders, and a shader's
/// `def`/`defi`/`defb` values are written over them for that shader.
#[derive(Clone, Debug, PartialEq)]
pub struct PixelConstants {
    /// `c0`…`c223`.
    pub floats: Vec<[f32; 4]>,
    /// `i0`…`i15`.
    pub ints: Vec<[i32; 4]>,
    /// `b0`…`b15`.
    pub bools: Vec<bool>,
}

/// Float constant registers of the largest pixel shader profile (ps_3_0).
const PIXEL_FLOAT_CONSTANTS: usize = 224;

impl Default for PixelConstants {
    /// All zero / FALSE, as a new device has them.
    fn default() -> Self {
        Self {
            floats: vec![[0.0; 4]; PIXEL_FLOAT_CONSTANTS],
            ints: vec![[0; 4]; INT_CONSTANTS as usize],
            bools: vec![false; BOOL_CONSTANTS as usize],
        }
    }
}

impl PixelConstants {
    /// `SetPixelShaderConstantF(start, values, values.len())`.
    pub fn set_f(&mut self, start: usize, values: &[[f32; 4]]) -> &mut Self {
        write(&mut self.floats, start, values);
        self
    }

    /// `SetPixelShaderConstantI(start, values, values.len())`.
    pub fn set_i(&mut self, start: usize, values: &[[i32; 4]]) -> &mut Self {
        write(&mut self.ints, start, values);
        self
    }

    /// `SetPixelShaderConstantB(start, values, values.len())`.
    pub fn set_b(&mut self, start: usize, values: &[bool]) -> &mut Self {
        write(&mut self.bools, start, values);
        self
    }

    /// The buffers a translated pixel shader's `interface` names, in the order float, int,
    /// bool: `c#` sized to the shader's register count (plus the zero register relative reads
    /// past the end land on), `i#` and `b#` in the hardware layouts of the vertex side, each
    /// with the shader's `def`s written over the application's values.
    pub fn buffers(&self, interface: &ShaderInterface) -> Vec<ConstantBuffer> {
        self.buffers_of(interface, Extent::Full)
    }

    /// The `c#` buffer's bytes of `extent` (as [`PixelConstants::buffers_of`] makes them)
    /// into `data`, its allocation reused.
    pub(crate) fn float_bytes_into(
        &self,
        interface: &ShaderInterface,
        extent: Extent,
        data: &mut Vec<u8>,
    ) {
        float_bytes(
            &self.floats,
            float_count(interface),
            interface,
            extent,
            data,
        );
    }

    /// [`PixelConstants::buffers`] with `c#` of `extent`.
    pub(crate) fn buffers_of(
        &self,
        interface: &ShaderInterface,
        extent: Extent,
    ) -> Vec<ConstantBuffer> {
        let counts = (
            float_count(interface),
            INT_CONSTANTS as usize,
            BOOL_CONSTANTS as usize,
        );
        register_buffers(
            &self.floats,
            &self.ints,
            &self.bools,
            counts,
            interface,
            extent,
        )
    }
}

/// The `c#`, `i#` and `b#` buffers `interface` names (those the shader uses), in that order:
/// the registers cut or zero-extended to `counts`, the shader's `def`s written over them, and
/// after `c#` the zero register that relative reads past the end land on. One layout for
/// both stages. With [`Extent::Read`], `c#` holds only the registers the shader reads, where
/// it reads none with a run-time index.
fn register_buffers(
    floats: &[[f32; 4]],
    ints: &[[i32; 4]],
    bools: &[bool],
    (float_count, int_count, bool_count): (usize, usize, usize),
    interface: &ShaderInterface,
    extent: Extent,
) -> Vec<ConstantBuffer> {
    let mut out = Vec::with_capacity(3);
    if let Some(fc) = interface.float_constants {
        let mut data = Vec::new();
        float_bytes(floats, float_count, interface, extent, &mut data);
        out.push(ConstantBuffer {
            group: fc.group,
            binding: fc.binding,
            storage: fc.storage,
            data,
        });
    }
    if let Some(b) = interface.int_constants {
        out.push(ConstantBuffer {
            group: b.group,
            binding: b.binding,
            storage: false,
            data: register_bytes(ints, int_count, 0, &interface.defined_ints),
        });
    }
    if let Some(b) = interface.bool_constants {
        let mut values: Vec<bool> = bools.iter().take(bool_count).copied().collect();
        values.resize(bool_count, false);
        for &(register, value) in &interface.defined_bools {
            if let Some(slot) = values.get_mut(register as usize) {
                *slot = value;
            }
        }
        out.push(ConstantBuffer {
            group: b.group,
            binding: b.binding,
            storage: false,
            data: bool_words(&values),
        });
    }
    out
}

/// Writes `values` from register `start`, dropping those past the end.
fn write<T: Copy>(registers: &mut [T], start: usize, values: &[T]) {
    for (slot, value) in registers.iter_mut().skip(start).zip(values) {
        *slot = *value;
    }
}

/// The `c#` registers a pixel shader's buffer is sized for (its profile's count).
fn float_count(interface: &ShaderInterface) -> usize {
    interface
        .float_constants
        .map_or(0, |f| f.registers as usize)
}

/// The `c#` buffer's bytes of `extent` into `data` (its allocation reused): registers
/// `0..n` where the shader reads only those directly (where it reads the zero register too,
/// the whole type), else every register and the zero register relative reads past the end
/// land on; the shader's `def`s written over them.
fn float_bytes(
    floats: &[[f32; 4]],
    float_count: usize,
    interface: &ShaderInterface,
    extent: Extent,
    data: &mut Vec<u8>,
) {
    let defined = &interface.defined_floats;
    // A window (`FloatConstants::window`) is all zeros past the registers.
    let window = interface
        .float_constants
        .and_then(|f| f.window)
        .map_or(1, |w| (w as usize).saturating_sub(float_count).max(1));
    match (extent, interface.float_constants_read) {
        (Extent::Read, Some(n)) if n as usize <= float_count => {
            register_bytes_into(data, floats, n as usize, 0, defined)
        }
        (Extent::Read, _) => register_bytes_into(data, floats, float_count, 1, defined),
        (Extent::Full, _) => register_bytes_into(data, floats, float_count, window, defined),
    }
}

/// `values` cut or zero-extended to `count` registers with the shader's `def`s written over
/// them, then `zeros` zero registers, as bytes: one allocation and one copy (a draw's
/// constants are built on every change of them).
fn register_bytes<T: bytemuck::Pod>(
    values: &[T],
    count: usize,
    zeros: usize,
    defined: &[(u32, T)],
) -> Vec<u8> {
    let mut data = Vec::new();
    register_bytes_into(&mut data, values, count, zeros, defined);
    data
}

/// [`register_bytes`] into `data`, its allocation reused.
fn register_bytes_into<T: bytemuck::Pod>(
    data: &mut Vec<u8>,
    values: &[T],
    count: usize,
    zeros: usize,
    defined: &[(u32, T)],
) {
    let size = std::mem::size_of::<T>();
    let len = (count + zeros) * size;
    // Not `vec![0; len]`: glibc's `calloc` clears far slower than this copies.
    data.clear();
    data.reserve(len);
    let kept = values.len().min(count);
    data.extend_from_slice(bytemuck::cast_slice(&values[..kept]));
    data.resize(len, 0);
    for (register, value) in defined {
        let at = *register as usize * size;
        if (*register as usize) < count {
            data[at..at + size].copy_from_slice(bytemuck::bytes_of(value));
        }
    }
}

/// `b#` as little-endian `u32` words, bit n % 32 of word n / 32 (one word for 16 registers).
fn bool_words(values: &[bool]) -> Vec<u8> {
    let mut words = vec![0u32; values.len().div_ceil(32)];
    for (n, _) in values.iter().enumerate().filter(|(_, &set)| set) {
        if let Some(word) = words.get_mut(n / 32) {
            *word |= 1 << (n % 32);
        }
    }
    bytemuck::cast_slice(&words).to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;
    use d3d9_translator::lift::interface::{
        FloatConstants, UniformBinding, BOOL_CONSTANTS_BINDING, FLOAT_CONSTANTS_BINDING,
        INT_CONSTANTS_BINDING, POSITION_FIXUP_BINDING, VS_CONSTANTS_GROUP,
    };

    fn binding(binding: u32) -> Option<UniformBinding> {
        Some(UniformBinding {
            group: VS_CONSTANTS_GROUP,
            binding,
        })
    }

    /// An interface reading every constant file, as the lifter makes it for `software`.
    fn interface(software: bool) -> ShaderInterface {
        ShaderInterface {
            float_constants: Some(FloatConstants {
                group: VS_CONSTANTS_GROUP,
                binding: FLOAT_CONSTANTS_BINDING,
                registers: if software { 8192 } else { 256 },
                storage: software,
                window: None,
            }),
            int_constants: binding(INT_CONSTANTS_BINDING),
            bool_constants: binding(BOOL_CONSTANTS_BINDING),
            position_fixup: binding(POSITION_FIXUP_BINDING),
            ..ShaderInterface::default()
        }
    }

    fn le<const N: usize, T>(data: &[u8], from: fn([u8; N]) -> T) -> Vec<T> {
        data.chunks_exact(N)
            .map(|c| from(c.try_into().unwrap()))
            .collect()
    }

    fn f32s(data: &[u8]) -> Vec<f32> {
        le(data, f32::from_le_bytes)
    }

    fn words(data: &[u8]) -> Vec<u32> {
        le(data, u32::from_le_bytes)
    }

    fn i32s(data: &[u8]) -> Vec<i32> {
        le(data, i32::from_le_bytes)
    }

    /// `Extent::Read` holds only the registers the shader reads (with its `def`s among them),
    /// and the whole type where it reads with a run-time index; `Full` always the whole type.
    #[test]
    fn read_extent_holds_the_registers_read() {
        let mut constants = VertexConstants::default();
        constants.set_f(0, &[[1.0; 4], [2.0; 4], [3.0; 4], [4.0; 4], [5.0; 4]]);
        let mut iface = interface(false);
        // c3 is defined but not read: it lies past a read extent of 3.
        iface.defined_floats = vec![(1, [7.0; 4]), (3, [9.0; 4]), (200, [8.0; 4])];
        let c = |iface: &ShaderInterface, extent| {
            constants.buffers_of(iface, [0.0; 4], extent).unwrap()[0]
                .data
                .clone()
        };
        iface.float_constants_read = Some(3);
        let read = f32s(&c(&iface, Extent::Read));
        assert_eq!(read.len(), 3 * 4);
        assert_eq!(read, [[1.0; 4], [7.0; 4], [3.0; 4]].concat());
        assert_eq!(c(&iface, Extent::Full).len(), 257 * 16);
        // Reading the spare zero register: the whole type, with it.
        iface.float_constants_read = Some(257);
        assert_eq!(c(&iface, Extent::Read).len(), 257 * 16);
        iface.float_constants_read = None;
        let full = c(&iface, Extent::Read);
        assert_eq!(full.len(), 257 * 16);
        assert_eq!(f32s(&full[200 * 16..201 * 16]), [8.0; 4]);
        assert_eq!(f32s(&full[256 * 16..]), [0.0; 4]);
    }

    /// The in-place rebuild of a memoised draw's `c#` buffer gives the bytes `buffers_of`
    /// gives, whatever the buffer held before (longer, shorter, other values), on both stages.
    #[test]
    fn float_bytes_into_rebuilds_the_c_buffer_in_place() {
        let mut vertex = VertexConstants::default();
        vertex.set_f(0, &[[1.0; 4], [2.0; 4], [3.0; 4]]);
        let mut pixel = PixelConstants::default();
        pixel.set_f(0, &[[4.0; 4], [5.0; 4]]);
        let mut iface = interface(false);
        iface.defined_floats = vec![(1, [7.0; 4])];
        for read in [Some(2), Some(3), None] {
            iface.float_constants_read = read;
            for extent in [Extent::Read, Extent::Full] {
                for before in [vec![], vec![0xAB; 8], vec![0xCD; 9000]] {
                    let mut data = before.clone();
                    vertex.float_bytes_into(&iface, extent, &mut data);
                    let expected = &vertex.buffers_of(&iface, [0.0; 4], extent).unwrap()[0];
                    assert_eq!(data, expected.data, "vertex {read:?} {extent:?}");
                    let mut data = before;
                    pixel.float_bytes_into(&iface, extent, &mut data);
                    assert_eq!(data, pixel.buffers_of(&iface, extent)[0].data);
                }
            }
        }
    }

    #[test]
    fn hardware_layouts_with_defs_over_the_application_values() {
        let mut constants = VertexConstants::default();
        constants
            .set_f(0, &[[1.0, 2.0, 3.0, 4.0], [5.0; 4]])
            .set_f(255, &[[9.0; 4], [10.0; 4]]) // c256 is past the end: dropped
            .set_i(15, &[[1, -2, 3, -4]])
            .set_b(0, &[true, false, true])
            .set_b(15, &[true]);
        let mut iface = interface(false);
        iface.defined_floats = vec![(1, [7.0; 4])];
        iface.defined_ints = vec![(0, [8, 0, 1, 0])];
        iface.defined_bools = vec![(2, false), (4, true)];
        let buffers = constants.buffers(&iface, (640, 480)).unwrap();
        assert_eq!(
            buffers
                .iter()
                .map(|b| (b.group, b.binding, b.storage))
                .collect::<Vec<_>>(),
            [(0, 0, false), (0, 1, false), (0, 2, false), (0, 3, false)]
        );

        let floats = f32s(&buffers[0].data);
        assert_eq!(floats.len(), 257 * 4);
        assert_eq!(&floats[0..4], [1.0, 2.0, 3.0, 4.0]);
        assert_eq!(
            &floats[4..8],
            [7.0; 4],
            "def c1 wins over SetVertexShaderConstantF"
        );
        assert_eq!(&floats[255 * 4..256 * 4], [9.0; 4]);
        assert_eq!(&floats[256 * 4..], [0.0; 4], "the zero element");

        let ints = i32s(&buffers[1].data);
        assert_eq!(ints.len(), 16 * 4);
        assert_eq!(&ints[0..4], [8, 0, 1, 0], "defi i0");
        assert_eq!(&ints[60..64], [1, -2, 3, -4]);

        // b0, b15 set; b2 set by the application but `defb b2, false`; `defb b4, true`.
        assert_eq!(words(&buffers[2].data), [1 | 1 << 4 | 1 << 15]);

        assert_eq!(
            f32s(&buffers[3].data),
            [1.0 / 640.0, -1.0 / 480.0, 0.0, 0.0]
        );
    }

    #[test]
    fn software_layouts() {
        let mut constants = VertexConstants::new(VertexProcessing::Software);
        constants
            .set_f(8191, &[[3.0; 4]])
            .set_i(2047, &[[5; 4]])
            .set_b(0, &[true])
            .set_b(33, &[true])
            .set_b(200, &[true])
            .set_b(2047, &[true]);
        let buffers = constants.buffers(&interface(true), (4, 2)).unwrap();
        assert!(buffers[0].storage);
        let floats = f32s(&buffers[0].data);
        assert_eq!(floats.len(), 8193 * 4);
        assert_eq!(&floats[8191 * 4..8192 * 4], [3.0; 4]);
        assert_eq!(&floats[8192 * 4..], [0.0; 4], "the zero element");
        let ints = i32s(&buffers[1].data);
        assert_eq!(ints.len(), 2048 * 4);
        assert_eq!(&ints[2047 * 4..], [5; 4]);
        // 64 words = array<vec4<u32>, 16>; b200 is bit 8 of word 6 (element 1, .z).
        let bools = words(&buffers[2].data);
        assert_eq!(bools.len(), 64);
        let mut want = [0u32; 64];
        want[0] = 1;
        want[1] = 1 << 1;
        want[6] = 1 << 8;
        want[63] = 1 << 31;
        assert_eq!(bools, want);
        assert_eq!(f32s(&buffers[3].data), [0.25, -0.5, 0.0, 0.0]);
        assert!(buffers[0].storage);
        assert!(!buffers[1].storage);
    }

    #[test]
    fn only_the_bindings_the_shader_reads() {
        let iface = ShaderInterface {
            bool_constants: binding(BOOL_CONSTANTS_BINDING),
            ..ShaderInterface::default()
        };
        let buffers = VertexConstants::default().buffers(&iface, (1, 1)).unwrap();
        assert_eq!(buffers.len(), 1);
        assert_eq!(buffers[0].binding, BOOL_CONSTANTS_BINDING);
        assert_eq!(words(&buffers[0].data), [0]);
    }

    #[test]
    fn pixel_constants_sized_by_the_shader_with_defs_over_them() {
        let mut constants = PixelConstants::default();
        constants
            .set_f(0, &[[1.0; 4], [2.0; 4]])
            .set_f(31, &[[3.0; 4], [4.0; 4]])
            .set_f(224, &[[9.0; 4]]) // past c223: dropped
            .set_i(1, &[[1, 2, 3, 4]])
            .set_b(3, &[true]);
        let mut iface = interface(false);
        iface.position_fixup = None;
        if let Some(fc) = iface.float_constants.as_mut() {
            fc.registers = 32;
        }
        iface.defined_floats = vec![(1, [7.0; 4])];
        iface.defined_bools = vec![(0, true)];
        let buffers = constants.buffers(&iface);
        assert_eq!(buffers.len(), 3);
        let floats = f32s(&buffers[0].data);
        assert_eq!(floats.len(), 33 * 4, "32 registers and the zero register");
        assert_eq!(&floats[0..4], [1.0; 4]);
        assert_eq!(&floats[4..8], [7.0; 4], "def c1 wins");
        assert_eq!(&floats[31 * 4..32 * 4], [3.0; 4]);
        assert_eq!(&floats[32 * 4..], [0.0; 4], "c32 is not the application's");
        assert_eq!(&i32s(&buffers[1].data)[4..8], [1, 2, 3, 4]);
        assert_eq!(words(&buffers[2].data), [1 | 1 << 3]);
        assert_eq!(PixelConstants::default().floats.len(), 224);
    }

    #[test]
    fn shader_and_device_processing_must_agree() {
        let err = VertexConstants::default()
            .buffers(&interface(true), (1, 1))
            .unwrap_err();
        assert_eq!(
            err,
            ProcessingMismatch {
                shader: 8192,
                device: 256,
                processing: VertexProcessing::Hardware
            }
        );
    }

    /// `c#` reads back what `SetVertexShaderConstantF` set (zero elsewhere and past the
    /// file), and the constants keep the device's processing mode.
    #[test]
    fn registers_read_back_what_was_set() {
        for processing in [VertexProcessing::Hardware, VertexProcessing::Software] {
            let mut constants = VertexConstants::new(processing);
            assert_eq!(constants.processing(), processing);
            constants.set_f(3, &[[1.0, -2.0, 3.5, 4.0]]);
            assert_eq!(constants.f(3), [1.0, -2.0, 3.5, 4.0]);
            assert_eq!(constants.f(2), [0.0; 4]);
            assert_eq!(constants.f(100_000), [0.0; 4], "past the last register");
        }
    }
}
