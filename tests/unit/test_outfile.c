/* test_outfile.c: engine/outfile.c: what an output name is and how it is
 * written. A symbolic link stays a link and its target is replaced (with
 * its mode); a FIFO, a socket, a device and a descriptor's name are written
 * straight to and stay what they are; an output that is the input, however
 * spelled, is refused; the temporary files are removed for a signal
 * handler. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "outfile.h"
#include "suites.h"
#include "scratch_dir.h"

static void
setup(void)
{
    scratch_make("outfile");
}

static void
teardown(void)
{
    scratch_remove();
}

/* The number of entries of the folder whose name has ".tmp." in it. */
static int
temporaries(void)
{
    int n = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += strstr(e->d_name, ".tmp.") != NULL;
    if (d)
        closedir(d);
    return n;
}

/* The folder's file @name in @path. */
static char *
in_dir(char *path, size_t cap, const char *name)
{
    snprintf(path, cap, "%s/%s", dir, name);
    return path;
}

static void
put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* The first line of @path into @buf ("" when unreadable). */
static const char *
get(const char *path, char *buf, size_t cap)
{
    buf[0] = 0;
    FILE *f = fopen(path, "r");
    if (f) {
        if (!fgets(buf, (int)cap, f))
            buf[0] = 0;
        fclose(f);
    }
    return buf;
}

/* Write @text to @path through xf_outfile; the return of finish. */
static int
write_through(const char *path, const char *input, const char *text, char *why, size_t len)
{
    xf_outfile o;
    if (xf_outfile_open(&o, path, input, why, len) != 0)
        return -2;
    ck_assert_int_eq(write(o.fd, text, strlen(text)), (int)strlen(text));
    ck_assert_int_eq(close(o.fd), 0);
    return xf_outfile_finish(&o, true, why, len);
}

/* A link (relative, absolute, a link to a link, one whose target does not
 * exist yet) stays a link; its target gets the new content and keeps its
 * mode; the temporary file was beside the target, and is gone. */
START_TEST(symlink_stays_target_replaced)
{
    char t[300], l[300], l2[300], l3[300], n[300], abs[300], why[300], buf[64];
    in_dir(t, sizeof t, "t.txt");
    put(t, "old");
    ck_assert_int_eq(chmod(t, 0640), 0);
    ck_assert_int_eq(symlink("t.txt", in_dir(l, sizeof l, "l")), 0);
    ck_assert_int_eq(write_through(l, NULL, "new", why, sizeof why), 0);
    struct stat st;
    ck_assert_int_eq(lstat(l, &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    ck_assert_str_eq(get(t, buf, sizeof buf), "new");
    ck_assert_int_eq(stat(t, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0640);
    /* a link to the link, by its absolute name */
    snprintf(abs, sizeof abs, "%s", l);
    ck_assert_int_eq(symlink(abs, in_dir(l2, sizeof l2, "l2")), 0);
    ck_assert_int_eq(write_through(l2, NULL, "newer", why, sizeof why), 0);
    ck_assert_int_eq(lstat(l2, &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    ck_assert_int_eq(lstat(l, &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    ck_assert_str_eq(get(t, buf, sizeof buf), "newer");
    /* a dangling link: its target is made */
    ck_assert_int_eq(symlink("n.txt", in_dir(l3, sizeof l3, "l3")), 0);
    ck_assert_int_eq(write_through(l3, NULL, "made", why, sizeof why), 0);
    ck_assert_int_eq(lstat(l3, &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    ck_assert_str_eq(get(in_dir(n, sizeof n, "n.txt"), buf, sizeof buf), "made");
    ck_assert_int_eq(temporaries(), 0);
}
END_TEST

/* A FIFO is written to, not replaced: a reader gets the bytes. */
START_TEST(fifo_written_straight)
{
    char f[300], why[300], buf[16] = {0};
    ck_assert_int_eq(mkfifo(in_dir(f, sizeof f, "fifo"), 0600), 0);
    int rd = open(f, O_RDONLY | O_NONBLOCK); /* a reader, so that opening to write does not wait */
    ck_assert_int_ge(rd, 0);
    ck_assert_int_eq(write_through(f, NULL, "abc", why, sizeof why), 0);
    ck_assert_int_eq(read(rd, buf, sizeof buf - 1), 3);
    ck_assert_str_eq(buf, "abc");
    close(rd);
    struct stat st;
    ck_assert_int_eq(lstat(f, &st), 0);
    ck_assert(S_ISFIFO(st.st_mode));
    ck_assert_int_eq(temporaries(), 0);
}
END_TEST

/* /dev/null stays a character device (as root, a rename would have replaced it). */
START_TEST(device_written_straight)
{
    char why[300];
    struct stat st;
    ck_assert_int_eq(stat("/dev/null", &st), 0);
    ck_assert(S_ISCHR(st.st_mode));
    ck_assert_int_eq(write_through("/dev/null", NULL, "x", why, sizeof why), 0);
    ck_assert_int_eq(stat("/dev/null", &st), 0);
    ck_assert(S_ISCHR(st.st_mode));
    /* a folder is neither replaced nor written */
    xf_outfile o;
    ck_assert_int_eq(xf_outfile_open(&o, dir, NULL, why, sizeof why), -1);
    ck_assert_str_eq(why, "cannot open: Is a directory");
}
END_TEST

/* /dev/fd/N and /proc/self/fd/N write to descriptor N itself (here a
 * pipe's end, which stays open for its owner). */
START_TEST(descriptor_names_written_straight)
{
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    char name[64], why[300], buf[16] = {0};
    snprintf(name, sizeof name, "/dev/fd/%d", p[1]);
    ck_assert_int_eq(write_through(name, NULL, "ab", why, sizeof why), 0);
    snprintf(name, sizeof name, "/proc/self/fd/%d", p[1]);
    ck_assert_int_eq(write_through(name, NULL, "cd", why, sizeof why), 0);
    ck_assert_int_eq(write(p[1], "e", 1), 1); /* still open */
    close(p[1]);
    ck_assert_int_eq(read(p[0], buf, sizeof buf - 1), 5);
    ck_assert_str_eq(buf, "abcde");
    close(p[0]);
    /* a descriptor that is not open */
    xf_outfile o;
    ck_assert_int_eq(xf_outfile_open(&o, "/dev/fd/999", NULL, why, sizeof why), -1);
    ck_assert_str_eq(why, "cannot open: Bad file descriptor");
}
END_TEST

/* A socket is connected to and written to. */
START_TEST(socket_written_straight)
{
    char s[300], why[300], buf[16] = {0};
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    in_dir(s, sizeof s, "sock");
    ck_assert_uint_lt(strlen(s), sizeof a.sun_path);
    memcpy(a.sun_path, s, strlen(s) + 1);
    int l = socket(AF_UNIX, SOCK_STREAM, 0);
    ck_assert_int_ge(l, 0);
    ck_assert_int_eq(bind(l, (const struct sockaddr *)&a, sizeof a), 0);
    ck_assert_int_eq(listen(l, 1), 0);
    ck_assert_int_eq(write_through(s, NULL, "sock", why, sizeof why), 0);
    int c = accept(l, NULL, NULL);
    ck_assert_int_ge(c, 0);
    ck_assert_int_eq(read(c, buf, sizeof buf - 1), 4);
    ck_assert_str_eq(buf, "sock");
    close(c);
    close(l);
    struct stat st;
    ck_assert_int_eq(lstat(s, &st), 0);
    ck_assert(S_ISSOCK(st.st_mode));
}
END_TEST

/* The input, spelled otherwise, through a link or a hard link: refused,
 * the file unchanged, nothing left; another file of the same content, or a
 * device, is no input. */
START_TEST(input_refused_however_spelled)
{
    char in[300], other[300], sl[300], hl[300], why[300], buf[64];
    in_dir(in, sizeof in, "in.xaif");
    put(in, "input");
    char spelled[320];
    snprintf(spelled, sizeof spelled, "%s/./in.xaif", dir);
    ck_assert_int_eq(symlink("in.xaif", in_dir(sl, sizeof sl, "sl.xaif")), 0);
    ck_assert_int_eq(link(in, in_dir(hl, sizeof hl, "hl.xaif")), 0);
    const char *outs[] = {in, spelled, sl, hl};
    for (size_t i = 0; i < 4; i++) {
        why[0] = 0;
        ck_assert_int_eq(write_through(outs[i], in, "output", why, sizeof why), -2);
        ck_assert_str_eq(why + strlen(why) - strlen("; it is not overwritten"),
                         "; it is not overwritten");
        ck_assert_ptr_nonnull(strstr(why, "the output is the input file "));
        /* and with the roles of the spellings swapped */
        ck_assert_int_eq(write_through(in, outs[i], "output", why, sizeof why), -2);
    }
    ck_assert_str_eq(get(in, buf, sizeof buf), "input");
    ck_assert_int_eq(temporaries(), 0);
    put(in_dir(other, sizeof other, "other.xaif"), "input");
    ck_assert(!xf_outfile_same(other, in));
    ck_assert_int_eq(write_through(other, in, "output", why, sizeof why), 0);
    ck_assert(!xf_outfile_same("/dev/null", "/dev/null"));
    ck_assert_int_eq(write_through("/dev/null", "/dev/null", "x", why, sizeof why), 0);
}
END_TEST

/* What a signal handler calls: every temporary file open is removed; the
 * outputs stay as they were; finishing afterwards is harmless. */
START_TEST(remove_all_for_a_signal)
{
    char a[300], b[300], why[300], buf[16];
    put(in_dir(a, sizeof a, "a.txt"), "old");
    xf_outfile oa, ob;
    ck_assert_int_eq(xf_outfile_open(&oa, a, NULL, why, sizeof why), 0);
    ck_assert_int_eq(xf_outfile_open(&ob, in_dir(b, sizeof b, "b.txt"), NULL, why, sizeof why), 0);
    ck_assert_int_eq(temporaries(), 2);
    ck_assert_int_eq(write(oa.fd, "new", 3), 3);
    xf_outfile_remove_all();
    ck_assert_int_eq(temporaries(), 0);
    close(oa.fd);
    close(ob.fd);
    ck_assert_int_eq(xf_outfile_finish(&oa, false, why, sizeof why), -1);
    ck_assert_int_eq(xf_outfile_finish(&ob, false, why, sizeof why), -1);
    ck_assert_str_eq(get(a, buf, sizeof buf), "old");
    ck_assert_int_eq(access(b, F_OK), -1);
    /* finished files are no longer listed: nothing of theirs is removed */
    ck_assert_int_eq(write_through(a, NULL, "new", why, sizeof why), 0);
    xf_outfile_remove_all();
    ck_assert_str_eq(get(a, buf, sizeof buf), "new");
}
END_TEST

Suite *
test_outfile_suite(void)
{
    Suite *s = suite_create("outfile");
    TCase *tc = tcase_create("outfile");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, symlink_stays_target_replaced);
    tcase_add_test(tc, fifo_written_straight);
    tcase_add_test(tc, device_written_straight);
    tcase_add_test(tc, descriptor_names_written_straight);
    tcase_add_test(tc, socket_written_straight);
    tcase_add_test(tc, input_refused_however_spelled);
    tcase_add_test(tc, remove_all_for_a_signal);
    suite_add_tcase(s, tc);
    return s;
}
