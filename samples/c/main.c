/* d3d9-c-samples SAMPLE OUT.ppm: draws one C sample (vertices, lights, textures) through
 * libd3d9 headless and writes the back buffer to OUT.ppm. Built by `d3d9-samples` and its
 * tests with the C ABI's compile line (README, "C ABI"):
 *
 *   cc -std=gnu11 -I capi/include -idirafter /usr/share/mingw-w64/include \
 *      samples/c/main.c samples/c/common.c \
 *      samples/c/vertices.c samples/c/lights.c samples/c/textures.c \
 *      -L target/release -ld3d9 -lm -Wl,-rpath,target/release -o d3d9-c-samples
 */
#include "common.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    static const struct
    {
        const char *name;
        void (*draw)(IDirect3DDevice9 *device);
    } samples[] = {
        {"vertices", sample_vertices},
        {"lights", sample_lights},
        {"textures", sample_textures},
    };
    IDirect3D9 *d3d = NULL;
    IDirect3DDevice9 *device;
    size_t i;

    if (argc != 3)
    {
        fprintf(stderr, "usage: %s vertices|lights|textures OUT.ppm\n", argv[0]);
        return 2;
    }
    for (i = 0; i < sizeof(samples) / sizeof(samples[0]); ++i)
    {
        if (strcmp(argv[1], samples[i].name) != 0)
            continue;
        device = sample_create_device(&d3d);
        CHECK_HR(IDirect3DDevice9_BeginScene(device));
        samples[i].draw(device);
        CHECK_HR(IDirect3DDevice9_EndScene(device));
        sample_write_ppm(device, argv[2]);
        IDirect3DDevice9_Release(device);
        IDirect3D9_Release(d3d);
        printf("%s: wrote %s\n", argv[1], argv[2]);
        return 0;
    }
    fprintf(stderr, "no sample %s\n", argv[1]);
    return 2;
}
