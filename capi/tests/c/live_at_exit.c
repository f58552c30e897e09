/* Linked beside a program that must release every object it made (the README's C tour):
 * once main has returned, prints libd3d9's count of live COM objects and ends the process
 * with status 3 unless it is 0. */
#include <stdio.h>
#include <unistd.h>

extern unsigned int D3D9NativeLiveObjects(void);

__attribute__((destructor)) static void no_live_objects_at_exit(void)
{
    unsigned int live = D3D9NativeLiveObjects();

    printf("live objects at exit: %u\n", live);
    fflush(stdout);
    if (live)
        _exit(3);
}
