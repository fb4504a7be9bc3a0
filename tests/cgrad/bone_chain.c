/* cgrad: bone_chain --independent angles --dependent tips --extent angles=nb,parent=nb,tips=2*nb,mul33:a=9,mul33:b=9,mul33:c=9 */
/* Forward kinematics of a tree of bones: each bone's rotation about z by
 * its angle and a unit offset along x, composed with its parent's
 * absolute transform (2-D homogeneous 3x3, row-major, in a work array
 * from malloc); the tip of every bone. */
#include <math.h>
#include <stdlib.h>

static void
mul33(const double *a, const double *b, double *c)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            c[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
}

void
bone_chain(int nb, const int *parent, const double *angles, double *tips)
{
    double *abs = malloc(9 * (size_t)nb * sizeof *abs);
    for (int i = 0; i < nb; i++) {
        double c = cos(angles[i]), s = sin(angles[i]);
        double rel[9] = {c, -s, 1.0, s, c, 0.0, 0.0, 0.0, 1.0};
        if (parent[i] < 0)
            for (int k = 0; k < 9; k++)
                abs[9 * i + k] = rel[k];
        else
            mul33(&abs[9 * parent[i]], rel, &abs[9 * i]);
        tips[2 * i] = abs[9 * i + 2];
        tips[2 * i + 1] = abs[9 * i + 5];
    }
    free(abs);
}

#ifdef XF_CHECK
#include "check.h"
void bone_chain_d(int nb, const int *parent, const double *angles, const double *anglesd,
                  double *tips, double *tipsd);
void bone_chain_b(int nb, const int *parent, const double *angles, double *anglesb, double *tips,
                  double *tipsb);
enum { NB = 5 };
static const int par[NB] = {-1, 0, 1, 0, 3};
XF_SIZES(NB, 2 * NB)
XF_POINT(x)
{
    for (int i = 0; i < NB; i++)
        x[i] = 0.3 * i - 0.4;
}
XF_F(x, y)
{
    bone_chain(NB, par, x, y);
}
XF_D(x, xd, y, yd)
{
    bone_chain_d(NB, par, x, xd, y, yd);
}
XF_B(x, xb, yb)
{
    bone_chain_b(NB, par, x, xb, (double[2 * NB]){0}, yb);
}
XF_MAIN
#endif
