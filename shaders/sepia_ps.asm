// sepia_ps: the classic sepia tone of a rendered texture (ps_2_0).
//   s0     the scene, rendered into a texture
ps_2_0
def c0, 0.393, 0.769, 0.189, 0.0
def c1, 0.349, 0.686, 0.168, 0.0
def c2, 0.272, 0.534, 0.131, 1.0
dcl t0.xy
dcl_2d s0
texld r0, t0, s0
dp3_sat r1.x, r0, c0
dp3_sat r1.y, r0, c1
dp3_sat r1.z, r0, c2
mov r1.w, c2.w
mov oC0, r1
