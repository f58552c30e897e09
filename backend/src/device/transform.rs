//! `SetTransform` / `GetTransform`: the matrices of the fixed-function vertex pipeline.
//!
//! D3D9 matrices are row-major and transform row vectors: `v' = v · M`, so a translation
//! sits in row 3 (`_41 _42 _43`). The fixed-function vertex stage computes the eye-space
//! position `e = v · World · View` and the clip-space position `e · Projection`.
//!
//! The stage reads the matrices from float constants, not from its code, so changing a
//! transform never translates a shader again (the layout is `fixed_function::constants`'s:
//! `World · View`, `Projection`, their product, the normal matrix, the vertex-blending
//! `D3DTS_WORLDMATRIX(n) · View` and `D3DTS_TEXTURE0..7`).

/// A D3D9 matrix (`D3DMATRIX`): `m[row][column]`, `_11` = `m[0][0]`, `_41` = `m[3][0]`.
pub type Matrix = [[f32; 4]; 4];

/// The identity matrix, every transform's default.
pub const IDENTITY: Matrix = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
    [0.0, 0.0, 0.0, 1.0],
];

/// `D3DTRANSFORMSTATETYPE`: which matrix `SetTransform` sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TransformState {
    /// `D3DTS_VIEW` (2).
    View,
    /// `D3DTS_PROJECTION` (3).
    Projection,
    /// `D3DTS_TEXTURE0..7` (16–23): texture coordinate transforms
    /// (`D3DTSS_TEXTURETRANSFORMFLAGS`); a stage past 7 is `D3DERR_INVALIDCALL`.
    Texture(u8),
    /// `D3DTS_WORLDMATRIX(n)` (256 + n); `D3DTS_WORLD` is `World(0)`, the others serve
    /// vertex blending.
    World(u8),
}

impl TransformState {
    /// `D3DTS_WORLD`.
    pub const WORLD: TransformState = TransformState::World(0);

    /// The state of D3D9's number: 2, 3, 16–23, 256–511; `None` for any other.
    pub fn from_d3d(value: u32) -> Option<TransformState> {
        match value {
            2 => Some(TransformState::View),
            3 => Some(TransformState::Projection),
            16..=23 => Some(TransformState::Texture((value - 16) as u8)),
            // D3DTS_WORLDMATRIX(n) is 256 + n: n is the low byte.
            256..=511 => Some(TransformState::World(value as u8)),
            _ => None,
        }
    }

    /// D3D9's number of the state.
    pub fn to_d3d(self) -> u32 {
        match self {
            TransformState::View => 2,
            TransformState::Projection => 3,
            TransformState::Texture(n) => 16 + u32::from(n),
            TransformState::World(n) => 256 + u32::from(n),
        }
    }
}

/// The device's transforms, all identity at creation.
#[derive(Clone, Debug)]
pub(crate) struct Transforms {
    view: Matrix,
    projection: Matrix,
    texture: [Matrix; 8],
    world: Vec<Matrix>,
}

impl Default for Transforms {
    fn default() -> Self {
        Transforms {
            view: IDENTITY,
            projection: IDENTITY,
            texture: [IDENTITY; 8],
            world: vec![IDENTITY; 256],
        }
    }
}

impl Transforms {
    /// The matrix of `state`; `None` for a texture stage past 7.
    pub(crate) fn get(&self, state: TransformState) -> Option<Matrix> {
        match state {
            TransformState::View => Some(self.view),
            TransformState::Projection => Some(self.projection),
            TransformState::Texture(n) => self.texture.get(usize::from(n)).copied(),
            TransformState::World(n) => self.world.get(usize::from(n)).copied(),
        }
    }

    /// Sets the matrix of `state`; `false` (nothing changed) for a texture stage past 7.
    pub(crate) fn set(&mut self, state: TransformState, matrix: Matrix) -> bool {
        let slot = match state {
            TransformState::View => Some(&mut self.view),
            TransformState::Projection => Some(&mut self.projection),
            TransformState::Texture(n) => self.texture.get_mut(usize::from(n)),
            TransformState::World(n) => self.world.get_mut(usize::from(n)),
        };
        match slot {
            Some(slot) => {
                *slot = matrix;
                true
            }
            None => false,
        }
    }

    /// Whether table fog takes its distance from w: `D3DTS_PROJECTION`'s last column is not
    /// (0, 0, 0, 1) (a "W-friendly", perspective projection), as wined3d decides it.
    pub(crate) fn w_fog(&self) -> bool {
        let p = &self.projection;
        [p[0][3], p[1][3], p[2][3], p[3][3]] != [0.0, 0.0, 0.0, 1.0]
    }
}

/// `a · b` (row vectors: transforming by the result is transforming by `a`, then by `b`).
pub(crate) fn multiply(a: &Matrix, b: &Matrix) -> Matrix {
    let mut out = [[0.0; 4]; 4];
    for (i, row) in out.iter_mut().enumerate() {
        for (j, value) in row.iter_mut().enumerate() {
            *value = (0..4).map(|k| a[i][k] * b[k][j]).sum();
        }
    }
    out
}

/// The inverse of `m`, `None` when it is singular (a pivot below 1e-12).
pub(crate) fn inverse(m: &Matrix) -> Option<Matrix> {
    // Gauss-Jordan elimination with partial pivoting, in f64.
    let mut a = [[0f64; 8]; 4];
    for (i, row) in a.iter_mut().enumerate() {
        for j in 0..4 {
            row[j] = f64::from(m[i][j]);
        }
        row[4 + i] = 1.0;
    }
    for col in 0..4 {
        let pivot = (col..4).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        let p = a[col][col];
        for v in a[col].iter_mut() {
            *v /= p;
        }
        let pivot_row = a[col];
        for (row, values) in a.iter_mut().enumerate() {
            if row != col {
                let factor = values[col];
                for (v, p) in values.iter_mut().zip(pivot_row) {
                    *v -= factor * p;
                }
            }
        }
    }
    Some(std::array::from_fn(|i| {
        std::array::from_fn(|j| a[i][4 + j] as f32)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverses_multiply_back_to_the_identity() {
        let m: Matrix = [
            [2.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 3.0, 0.0],
            [0.0, -1.0, 1.0, 0.5],
            [4.0, 5.0, 6.0, 1.0],
        ];
        let i = inverse(&m).unwrap_or_else(|| unreachable!("m is regular"));
        let product = multiply(&m, &i);
        for (r, row) in product.iter().enumerate() {
            for (c, v) in row.iter().enumerate() {
                let expected = if r == c { 1.0 } else { 0.0 };
                assert!((v - expected).abs() < 1e-5, "{product:?}");
            }
        }
        assert_eq!(inverse(&[[0.0; 4]; 4]), None);
    }

    #[test]
    fn numbers_round_trip_and_unknown_numbers_are_none() {
        for n in [2u32, 3, 16, 23, 256, 257, 511] {
            let state = TransformState::from_d3d(n);
            assert_eq!(state.map(TransformState::to_d3d), Some(n));
        }
        for n in [0u32, 1, 4, 15, 24, 255, 512, u32::MAX] {
            assert_eq!(TransformState::from_d3d(n), None, "{n}");
        }
        assert_eq!(TransformState::WORLD.to_d3d(), 256);
    }

    #[test]
    fn inverse_undoes_a_perspective_view_projection() {
        let view: Matrix = [
            [0.0, 0.0, 1.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [-1.0, 0.0, 0.0, 0.0],
            [3.0, -2.0, 5.0, 1.0],
        ];
        // D3DXMatrixPerspectiveFovLH-like: w = z.
        let projection: Matrix = [
            [1.5, 0.0, 0.0, 0.0],
            [0.0, 2.0, 0.0, 0.0],
            [0.0, 0.0, 1.01, 1.0],
            [0.0, 0.0, -0.101, 0.0],
        ];
        let m = multiply(&view, &projection);
        let i = inverse(&m).expect("invertible");
        let product = multiply(&m, &i);
        for (r, row) in product.iter().enumerate() {
            for (c, v) in row.iter().enumerate() {
                // f32 products of entries up to 5 in size.
                assert!((v - IDENTITY[r][c]).abs() < 1e-4, "{product:?}");
            }
        }
    }

    #[test]
    fn singular_matrices_have_no_inverse() {
        let mut m = IDENTITY;
        m[2] = [0.0; 4];
        assert_eq!(inverse(&m), None);
        assert_eq!(inverse(&[[0.0; 4]; 4]), None);
        assert_eq!(inverse(&IDENTITY), Some(IDENTITY));
    }
}
