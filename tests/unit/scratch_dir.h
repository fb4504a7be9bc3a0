/* scratch_dir.h: a unit suite's scratch folder: made before each test in
 * /tmp, emptied (one level) and removed after it. Include it in one test
 * file per suite and name setup_scratch/teardown_scratch as the fixture. */
#ifndef XF_TESTS_SCRATCH_DIR_H
#define XF_TESTS_SCRATCH_DIR_H

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];

/* Make the folder /tmp/xf_TAG_XXXXXX in dir. */
static void
scratch_make(const char *tag)
{
    snprintf(dir, sizeof dir, "/tmp/xf_%s_XXXXXX", tag);
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

/* Remove the files in dir, then dir. */
static void
scratch_remove(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[400];
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
    if (d)
        closedir(d);
    rmdir(dir);
}

#endif
