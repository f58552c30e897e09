//! The little D3DX matrix math the scenes compute on the CPU.
//!
//! D3D9 conventions: row vectors (`v * M`), a left-handed coordinate
//! system (x right, y up, z into the screen), clip-space z in [0, 1]. A
//! shader's `m4x4 oPos, v0, c0` computes `dp4(v0, c0) .. dp4(v0, c3)`, so an
//! application loads the *columns* of its matrix into c0–c3 (the transpose
//! `D3DXMatrixTranspose` gives); [`Mat4::columns`] is that.

/// A 3-component vector.
pub type Vec3 = [f32; 3];

/// A 4x4 matrix in D3DX's row-vector layout: `rows[3]` holds the translation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mat4 {
    pub rows: [[f32; 4]; 4],
}

impl Mat4 {
    /// `D3DXMatrixIdentity`.
    pub const IDENTITY: Mat4 = Mat4 {
        rows: [
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
            [0.0, 0.0, 0.0, 1.0],
        ],
    };

    /// `D3DXMatrixRotationX`: `angle` radians, clockwise looking along +x.
    pub fn rotation_x(angle: f32) -> Mat4 {
        let (s, c) = angle.sin_cos();
        Mat4 {
            rows: [
                [1.0, 0.0, 0.0, 0.0],
                [0.0, c, s, 0.0],
                [0.0, -s, c, 0.0],
                [0.0, 0.0, 0.0, 1.0],
            ],
        }
    }

    /// `D3DXMatrixRotationY`.
    pub fn rotation_y(angle: f32) -> Mat4 {
        let (s, c) = angle.sin_cos();
        Mat4 {
            rows: [
                [c, 0.0, -s, 0.0],
                [0.0, 1.0, 0.0, 0.0],
                [s, 0.0, c, 0.0],
                [0.0, 0.0, 0.0, 1.0],
            ],
        }
    }

    /// `D3DXMatrixRotationZ`: turns +x towards +y.
    pub fn rotation_z(angle: f32) -> Mat4 {
        let (s, c) = angle.sin_cos();
        Mat4 {
            rows: [
                [c, s, 0.0, 0.0],
                [-s, c, 0.0, 0.0],
                [0.0, 0.0, 1.0, 0.0],
                [0.0, 0.0, 0.0, 1.0],
            ],
        }
    }

    /// `D3DXMatrixLookAtLH`.
    pub fn look_at_lh(eye: Vec3, at: Vec3, up: Vec3) -> Mat4 {
        let z = normalize(sub(at, eye));
        let x = normalize(cross(up, z));
        let y = cross(z, x);
        Mat4 {
            rows: [
                [x[0], y[0], z[0], 0.0],
                [x[1], y[1], z[1], 0.0],
                [x[2], y[2], z[2], 0.0],
                [-dot(x, eye), -dot(y, eye), -dot(z, eye), 1.0],
            ],
        }
    }

    /// `D3DXMatrixPerspectiveFovLH`: vertical field of view `fov_y`
    /// radians, width / height `aspect`, near and far planes.
    pub fn perspective_fov_lh(fov_y: f32, aspect: f32, near: f32, far: f32) -> Mat4 {
        let y = 1.0 / (fov_y / 2.0).tan();
        let x = y / aspect;
        let q = far / (far - near);
        Mat4 {
            rows: [
                [x, 0.0, 0.0, 0.0],
                [0.0, y, 0.0, 0.0],
                [0.0, 0.0, q, 1.0],
                [0.0, 0.0, -near * q, 0.0],
            ],
        }
    }

    /// `self * other`: first `self`, then `other`, as D3DX composes.
    pub fn then(&self, other: &Mat4) -> Mat4 {
        let mut rows = [[0.0; 4]; 4];
        for (i, row) in rows.iter_mut().enumerate() {
            for (j, value) in row.iter_mut().enumerate() {
                *value = (0..4).map(|k| self.rows[i][k] * other.rows[k][j]).sum();
            }
        }
        Mat4 { rows }
    }

    /// The columns: what `SetVertexShaderConstantF` gets for `m4x4` (c0–c3)
    /// or, first three only, for `m4x3` / `m3x3`.
    pub fn columns(&self) -> [[f32; 4]; 4] {
        let mut columns = [[0.0; 4]; 4];
        for (j, column) in columns.iter_mut().enumerate() {
            for (i, value) in column.iter_mut().enumerate() {
                *value = self.rows[i][j];
            }
        }
        columns
    }

    /// `v * M` for the point `(v, 1)`: clip-space (x, y, z, w).
    pub fn transform_point(&self, v: Vec3) -> [f32; 4] {
        let p = [v[0], v[1], v[2], 1.0];
        let mut out = [0.0; 4];
        for (j, value) in out.iter_mut().enumerate() {
            *value = (0..4).map(|k| p[k] * self.rows[k][j]).sum();
        }
        out
    }
}

/// The pixel (x, y) of a clip-space position on a `width` x `height`
/// viewport covering the target (D3D9: y grows downwards).
pub fn to_pixel(clip: [f32; 4], width: u32, height: u32) -> (f32, f32) {
    let (x, y) = (clip[0] / clip[3], clip[1] / clip[3]);
    (
        (x + 1.0) * 0.5 * width as f32,
        (1.0 - y) * 0.5 * height as f32,
    )
}

pub fn add(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

pub fn sub(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub fn scale(a: Vec3, s: f32) -> Vec3 {
    [a[0] * s, a[1] * s, a[2] * s]
}

pub fn dot(a: Vec3, b: Vec3) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub fn cross(a: Vec3, b: Vec3) -> Vec3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// `a / |a|`; the zero vector stays zero.
pub fn normalize(a: Vec3) -> Vec3 {
    let length = dot(a, a).sqrt();
    if length == 0.0 {
        a
    } else {
        scale(a, 1.0 / length)
    }
}

/// A triangle's indices in D3D9's front-facing order: clockwise as seen
/// from the side `outward` points to (left-handed: `(b - a) x (c - a)`
/// points along `outward`), so the default `D3DCULL_CCW` keeps it.
pub fn front_facing(positions: &[Vec3], tri: [u16; 3], outward: Vec3) -> [u16; 3] {
    let at = |i: u16| positions.get(usize::from(i)).copied().unwrap_or([0.0; 3]);
    let (a, b, c) = (at(tri[0]), at(tri[1]), at(tri[2]));
    if dot(cross(sub(b, a), sub(c, a)), outward) >= 0.0 {
        tri
    } else {
        [tri[0], tri[2], tri[1]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn composition_applies_left_matrix_first() {
        let m = Mat4::rotation_z(std::f32::consts::FRAC_PI_2).then(&Mat4 {
            rows: [
                [1.0, 0.0, 0.0, 0.0],
                [0.0, 1.0, 0.0, 0.0],
                [0.0, 0.0, 1.0, 0.0],
                [5.0, 0.0, 0.0, 1.0],
            ],
        });
        let p = m.transform_point([1.0, 0.0, 0.0]);
        assert!(
            (p[0] - 5.0).abs() < 1e-6 && (p[1] - 1.0).abs() < 1e-6,
            "{p:?}"
        );
    }

    #[test]
    fn look_at_and_perspective_put_the_target_at_the_centre() {
        let view = Mat4::look_at_lh([0.0, 2.0, -5.0], [0.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
        let proj = Mat4::perspective_fov_lh(1.0, 4.0 / 3.0, 1.0, 100.0);
        let clip = view.then(&proj).transform_point([0.0, 0.0, 0.0]);
        let (x, y) = to_pixel(clip, 640, 480);
        assert!((x - 320.0).abs() < 1e-3 && (y - 240.0).abs() < 1e-3);
        let depth = clip[2] / clip[3];
        assert!(depth > 0.0 && depth < 1.0, "{depth}");
    }

    #[test]
    fn front_facing_orders_clockwise_towards_the_viewer() {
        // Seen from -z (the default camera), clockwise on screen.
        let p = [[0.0, 1.0, 0.0], [-1.0, -1.0, 0.0], [1.0, -1.0, 0.0]];
        assert_eq!(front_facing(&p, [0, 1, 2], [0.0, 0.0, -1.0]), [0, 2, 1]);
        assert_eq!(front_facing(&p, [0, 2, 1], [0.0, 0.0, -1.0]), [0, 2, 1]);
    }
}
