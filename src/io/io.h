/* Files: outputs written whole or not at all, what clmem keeps between
 * runs (the compiled-program cache, the tuning database) under
 * $XDG_CACHE_HOME/clmem, else $HOME/.cache/clmem, read back only when
 * nobody else could have written it (the rules ssh applies to ~/.ssh),
 * and netpbm images. Above base; no OpenCL calls. */
#ifndef CLMEM_IO_H
#define CLMEM_IO_H

#include "base/base.h"

#include <limits.h>    /* PATH_MAX, NAME_MAX */
#include <sys/stat.h>  /* struct stat */
#include <sys/types.h> /* pid_t */

/* ---- output files (output.c) ---- */
/* Output files appear whole or not at all: written to .NAME.XXXXXX
 * beside the target, then renamed over it. Open checks writability early
 * (a temporary file made and removed at once); the temporary file itself
 * is made only when the first byte is written (or at commit), so a
 * process killed before its report (SIGKILL, the OOM killer) leaves
 * nothing behind. A symbolic link is followed (its target is written, the
 * link stays), except another user's link in a sticky world-writable
 * directory (/tmp), anywhere in the path, which is refused as the
 * kernel's protected_symlinks refuses it (clmem_path_walk); a target that exists and is not a
 * regular file (/dev/null, a pipe) is written directly, never replaced, and /dev/stdout
 * (/proc/self/fd/N) is this process's own descriptor as it is (tmp_path
 * is then ""). A file replaced keeps its mode and, where this user may
 * give them (root; a group it belongs to), its owner and group. */
struct clmem_output {
    char path[1024];     /* as given, for messages */
    char target[1024];   /* what is written: path with its symbolic links followed */
    char tmp_path[1100]; /* the temporary file, "" until made (and when written directly) */
    FILE *file;
    int dir_fd;       /* the target's directory while a file is renamed into it (clmem_path_walk) */
    int pending;      /* its slot among the files clmem_output_remove_pending removes, or -1 */
    int fd;           /* the temporary file's descriptor once made, else -1 */
    int replace;      /* written to a temporary file renamed over target */
    int private_file; /* a state file: this user's, 0600 (clmem_output_open_private) */
};
int clmem_output_open(struct clmem_output *out, const char *path, struct clmem_error *err);
/* The same for a state file (a program-cache entry, the tuning database):
 * written 0600 and owned by this user, whatever it replaces. */
int clmem_output_open_private(struct clmem_output *out, const char *path, struct clmem_error *err);
/* Whether `path` could be opened by clmem_output_open (the same message
 * when not), leaving nothing behind and opening no device or pipe. */
int clmem_output_check(const char *path, struct clmem_error *err);
int clmem_output_commit(struct clmem_output *out, struct clmem_error *err);
void clmem_output_abort(struct clmem_output *out);
/* Removes the temporary file of every output open now (reports, images,
 * cache entries, the tuning database), for a signal that stops clmem at
 * once: async-signal-safe (unlink alone). */
void clmem_output_remove_pending(void);
/* What else a stop at once takes away: a temporary directory of files
 * being written (a report's, removed with the files in it) and a child
 * process writing there (gnuplot: killed with its process group, which it
 * must lead). Each returns its slot (-1 when all are taken: then not
 * removed by a signal), given back by clmem_output_pending_release. */
int clmem_output_pending_dir(const char *dir);
int clmem_output_pending_child(pid_t pid);
void clmem_output_pending_release(int slot);
/* Which of the n files `inputs` the file at `path` is: the same device and
 * inode (through hard links, and symbolic links among the inputs; `path`'s
 * own followed with `follow`); -1 when none, or when `path` is missing. */
int clmem_file_among(const char *path, int follow, const char *const inputs[], size_t n);

/* Where a path leads, walked as the kernel walks it, a directory at a
 * time, each entered through the one before (openat, O_PATH | O_NOFOLLOW),
 * every symbolic link on the way (its directories' as well as the last
 * name's) read and followed here, after the check the kernel makes only
 * where fs.protected_symlinks is set: a link in a sticky world-writable
 * directory (/tmp) that belongs neither to this user nor to the
 * directory's owner is not followed. Where a check in one place and a
 * write by path in another could be told apart by a link put there in
 * between, a file made through dir_fd cannot. */
struct clmem_path {
    int dir_fd;         /* the directory that holds `name` (O_PATH), or -1 */
    int own_fd;         /* >= 0: this process's own descriptor N (/dev/stdout, /dev/fd/N) */
    char dir[PATH_MAX]; /* that directory's path, with no link in it */
    char name[NAME_MAX +
              1]; /* not a link: missing, or what is there ("." for the directory itself) */
};
/* 0 and *where (its dir_fd the caller's to close); an errno (ENOENT for a
 * missing directory on the way, ENOTDIR, ELOOP after 40 links); or -1 and
 * why (a sentence about the link) for a link not followed. With
 * `make_dirs`, missing directories on the way are made (0700), and so is
 * the last name when `path` ends in '/'. */
int clmem_path_walk(const char *path, int make_dirs, struct clmem_path *where, char *why,
                    size_t why_size);

/* ---- report directories (outdir.c): compare --output-dir ---- */
/* A report directory holds the list of the files clmem wrote there (its
 * manifest, CLMEM_OUTDIR_MANIFEST), so that the next report replaces
 * those files and no others. */
#define CLMEM_OUTDIR_MANIFEST ".clmem-manifest"
/* Whether `dir` may take a report, before any work: not "", ".", "..",
 * "/" (nor a path ending in . or ..); not through another user's link in
 * a sticky world-writable directory, anywhere in the path; an existing
 * directory this user may write that is empty or holds a manifest; or
 * absent, in such a directory. A usage error saying why otherwise. */
int clmem_outdir_check(const char *dir, struct clmem_error *err);
/* Where `dir` is, every link in it followed (clmem_path_walk): a path with
 * no link left, which a report is then written by; `dir` as given (its
 * trailing slashes cut) where it cannot be walked. */
void clmem_outdir_real(const char *dir, char *real, size_t size);
/* Writes the manifest of the files now in `dir` (a report's temporary
 * directory, once its files are written). */
int clmem_outdir_manifest_write(const char *dir, struct clmem_error *err);
/* The files an earlier report wrote into a directory, read once. */
struct clmem_outdir_manifest {
    char *text;         /* the manifest, its lines cut at '\n' */
    const char **names; /* the lines, sorted */
    size_t n;
};
/* Reads the manifest in `dir` (none there, or not clmem's: n 0). 0, or -1
 * when out of memory. */
int clmem_outdir_manifest_read(const char *dir, struct clmem_outdir_manifest *m);
/* Whether the manifest lists `name` (the manifest itself counts): a file
 * of an earlier report, which the next one replaces or removes. */
int clmem_outdir_manifest_lists(const struct clmem_outdir_manifest *m, const char *name);
void clmem_outdir_manifest_free(struct clmem_outdir_manifest *m);
/* Publishing: the report is written into a temporary directory, which
 * then takes DIR's place in one step. clmem_outdir_temp makes it (DIR a
 * real path: clmem_outdir_real): DIR.tmp.XXXXXX beside DIR; inside an
 * existing DIR (DIR/.clmem-report.tmp.XXXXXX) when its parent cannot take
 * it or is on another file system (a mount point), where renames could
 * not move the files. */
int clmem_outdir_temp(const char *dir, char *tmp, size_t size, struct clmem_error *err);
/* The finished report at tmp into DIR in one step (`given`: DIR as the
 * user wrote it, for messages). DIR absent: tmp becomes DIR. DIR there:
 * what it holds besides the report's files comes along, the two
 * directories are swapped and the old one removed; until the swap DIR is
 * as it was. tmp inside DIR: each file moves in, once every one is known
 * to be replaceable. */
int clmem_outdir_publish(const char *tmp, const char *dir, const char *given,
                         struct clmem_error *err);
/* Removes a temporary directory and the files in it. */
void clmem_outdir_remove(const char *tmp);
/* The names in a directory (not . and ..), in one malloc'd block; NULL
 * (errno set) when it cannot be read. */
char (*clmem_outdir_list(const char *path, size_t *n))[256];

/* ---- reading a whole file (read.c) ---- */
/* Reads `fd` from where it stands to its end (EINTR retried; fd left
 * open) into *data, malloc'd and NUL-terminated, *len bytes. `hint` is
 * the first buffer's size (a regular file's st_size + 1 reads it in one
 * go; 0: 64 KiB). 0; or -1 with errno: EFBIG when more than `cap` bytes
 * are there, ENOMEM, or read's; *len then says how much was read. */
int clmem_read_fd(int fd, size_t cap, size_t hint, char **data, size_t *len);

/* ---- JSON text (jsontext.c) ---- */
/* What is wrong with a JSON text, and where. */
enum clmem_json_fault {
    CLMEM_JSON_OK,
    CLMEM_JSON_SYNTAX,    /* not JSON here */
    CLMEM_JSON_EARLY_END, /* cut short: a truncated file */
    CLMEM_JSON_TRAILING,  /* something after the document (a second one, a NUL) */
    CLMEM_JSON_NUL,       /* a NUL byte, or \u0000, inside it */
    CLMEM_JSON_NUMBER,    /* a number JSON does not allow ("02") */
    CLMEM_JSON_NOT_UTF8,  /* a string that is not UTF-8, an unpaired surrogate */
    CLMEM_JSON_TOO_DEEP,  /* nested deeper than a parser should recurse */
    CLMEM_JSON_TOO_MANY,  /* more than max_values values */
};
struct clmem_json_check {
    enum clmem_json_fault fault;
    size_t at;        /* the byte where it is */
    const char *what; /* "a number with a leading zero", ... ("" for plain syntax) */
    size_t values;    /* the values counted (up to the fault) */
};
/* Whether `text` (len bytes) is exactly one JSON document (RFC 8259),
 * blanks around it, of at most max_values values (objects, arrays,
 * strings, numbers, literals); with `utf8`, every string UTF-8 too. 0, or
 * -1 with *check saying what and where. */
int clmem_json_check(const char *text, size_t len, int utf8, size_t max_values,
                     struct clmem_json_check *check);

/* ---- state files (state.c) ---- */
/* $XDG_CACHE_HOME/clmem[/SUB] when XDG_CACHE_HOME is an absolute path,
 * else $HOME/.cache/clmem[/SUB] when HOME is an existing directory (a
 * missing HOME is never created); -1 and *why when there is no such place
 * or its name is too long. */
int clmem_state_dir(const char *sub, char *dir, size_t size, const char **why);

/* mkdir -p of `dir`, each directory it makes 0700, through no link that
 * clmem_path_walk refuses; 0, or -1 with errno (ENOTDIR when something
 * other than a directory is in the way, EACCES for such a link). */
int clmem_state_mkdir(const char *dir);

/* Whether `dir` can hold files: made (mkdir -p, 0700) where missing, and
 * a file made and removed in it. 0, or -1 and why ("'/home/u/f' is not a
 * directory", "nothing can be made in '/proc' (No such file or directory)"). */
int clmem_dir_usable(const char *dir, char *why, size_t why_size);

/* 0 when `dir` is a directory of the effective user that neither group nor
 * others can write; else -1 and why ("belongs to uid 65534, not to you
 * (uid 1000)", ...). */
int clmem_state_dir_check(const char *dir, char *why, size_t why_size);

enum clmem_state_open {
    CLMEM_STATE_OPENED,   /* *file is open for reading */
    CLMEM_STATE_MISSING,  /* no such file (or directory): not a fault */
    CLMEM_STATE_BAD_FILE, /* the file itself is not to be trusted: why */
    CLMEM_STATE_BAD_DIR,  /* its directory is not to be trusted: why */
};
/* Opens a state file for reading without following a symbolic link or
 * blocking (O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), and only when it is a
 * regular file of the effective user that neither group nor others can
 * write, in a directory that passes clmem_state_dir_check. `why` completes
 * a sentence whose subject is the file: "is a FIFO, not a regular file". */
enum clmem_state_open clmem_state_open(const char *path, FILE **file, char *why, size_t why_size);

/* "a directory", "a FIFO", ...: what a file of this st_mode is. */
const char *clmem_state_kind(unsigned mode);

/* ---- the compiled-program cache's files (cache.c) ---- */
/* One file per (clmem version, `identity`: the platform, device, OpenCL
 * and driver versions and build options, one "name value" line each, and
 * the source), under $XDG_CACHE_HOME/clmem/programs. */
struct clmem_cache_entry {
    char key[2048]; /* the whole key, stored in the file and compared on load */
    char path[1024];
};
/* Names the entry; -1 when there is no cache directory (XDG_CACHE_HOME
 * unset and HOME missing), -2 when the key is too long. */
int clmem_cache_name(const char *identity, const char *source, struct clmem_cache_entry *entry);
/* The binary an entry's file holds (malloc'd), after checking its magic,
 * whole key, length and checksum; NULL with *why NULL when there is no
 * file, or with *why saying what is wrong. */
unsigned char *clmem_cache_read(const struct clmem_cache_entry *entry, size_t *bin_size,
                                const char **why);
/* Opens and reads an entry as clmem_state_open opens: OPENED with *bin
 * (malloc'd), or OPENED with *bin NULL and `reason` ("was truncated")
 * when the file is not a good entry; otherwise what clmem_state_open says. */
enum clmem_state_open clmem_cache_take(const struct clmem_cache_entry *entry, unsigned char **bin,
                                       size_t *bin_size, char *reason, size_t reason_size);
/* Removes an entry that must not be used again: "" or why it stays. */
const char *clmem_cache_drop(const struct clmem_cache_entry *entry);
/* Keeps a binary, 0600 in a directory of this user's alone; 0, or -1
 * when it could not (only the next run's build is lost). */
int clmem_cache_write(const struct clmem_cache_entry *entry, const unsigned char *bin, size_t size);

/* ---- the tuning database (tuning.c) ---- */
/* $XDG_CACHE_HOME/clmem/tuning.json (else ~/.cache/clmem/tuning.json). */
int clmem_tuning_path(char *path, size_t size);
/* Creates the database's directory and checks it can be written (usage
 * error otherwise): `clmem tune` calls it before any search. */
int clmem_tuning_prepare(struct clmem_error *err);
/* What an entry is for. */
struct clmem_tuning_key {
    const char *device, *driver, *workload, *variant, *size_class;
};
/* 1 and values[i] for each of the n parameter names when the database
 * holds an entry for key that is not the built-in parameters' (those
 * entries say to keep the built-in choice); else 0. An unreadable
 * database, or an entry whose parameter is missing or no whole number
 * from 1 to INT_MAX, is ignored and described in `warning`
 * (clmem_tuning_warn). */
int clmem_tuning_db_lookup(const struct clmem_tuning_key *key, const char *const names[], size_t n,
                           int values[], char *warning, size_t warning_size);
/* Adds `text` to the warnings in `warning` ("; " between them), unless it
 * is there already: a run looks its entries up once per variant. */
void clmem_tuning_warn(char *warning, size_t size, const char *text);
/* What a search found: the best metric and the built-in parameters'; with
 * `builtin`, no candidate beat them. */
struct clmem_tuning_outcome {
    double metric, default_metric;
    const char *unit;
    int builtin;
    /* The shape measured ("MxNxK", clmem_size_shape): a class holds many
     * shapes, and which variant is faster at one says nothing of another
     * (a square against a thin one). NULL: not said. */
    const char *shape;
};
/* Keeps key's entry (replacing any before it), the file written whole or
 * not at all; a database that is there but cannot be used (not valid, not
 * trusted) is left as it is: CLMEM_ERR_USAGE, saying to fix or remove it. */
/* Takes the tuning database's lock (the one a store holds from its read
 * to its rename; *fd is it, close(*fd) releases it): the fitted rows'
 * read-merge-write holds it too, so two tunes of one device at once keep
 * both their rows. */
int clmem_tuning_lock(int *fd, struct clmem_error *err);
int clmem_tuning_db_store(const struct clmem_tuning_key *key, const char *const names[],
                          const int values[], size_t n, const struct clmem_tuning_outcome *outcome,
                          struct clmem_error *err);

/* One entry of the database, as --show lists it. */
struct clmem_tuning_entry {
    char device[128], driver[128], workload[32], variant[32], size_class[64];
    char params[256]; /* "TSM=64 TSN=64 ..." */
    double metric, default_metric;
    char unit[32];
    int builtin;
    char shape[64]; /* "" in entries stored before the shape was */
};
/* The entries for `device` (every one when NULL), malloc'd (NULL with
 * none). A missing database holds none; one that cannot be used is a
 * usage error saying why. */
int clmem_tuning_db_entries(const char *device, struct clmem_tuning_entry **entries, size_t *n,
                            struct clmem_error *err);
/* Removes the entries for `device` (and `workload` unless NULL) under the
 * database's lock, the file written whole or not at all; *removed counts
 * them. */
int clmem_tuning_db_remove(const char *device, const char *workload, size_t *removed,
                           struct clmem_error *err);

/* ---- images (netpbm.c): blur's --input and image output ---- */
/* An 8-bit image, rows of width pixels of `channels` interleaved bytes. */
struct clmem_image {
    size_t width, height;
    unsigned channels; /* 1 (grey, P5) or 3 (RGB, P6) */
    unsigned maxval;   /* 1..255 */
    unsigned char *pixels;
};
/* Reads a binary P5 or P6 file, maxval 1..255. Every malformed or truncated
 * file is a usage error naming the file and what is wrong. */
int clmem_netpbm_read(const char *path, struct clmem_image *image, struct clmem_error *err);
/* The whole of an input file (malloc'd), read once: a pipe, a FIFO,
 * /dev/stdin, a process substitution as well as a regular file. */
int clmem_input_read(const char *path, unsigned char **data, size_t *size, struct clmem_error *err);
/* clmem_netpbm_read of an image already read; `path` names it in messages. */
int clmem_netpbm_parse(const char *path, const unsigned char *data, size_t size,
                       struct clmem_image *image, struct clmem_error *err);
/* Writes P5 (1 channel) or P6 (3) whole or not at all (clmem_output_*). */
int clmem_netpbm_write(const char *path, const struct clmem_image *image, struct clmem_error *err);
void clmem_image_free(struct clmem_image *image);
/* The generated input: seeded random bytes, maxval 255. */
int clmem_image_generate(struct clmem_image *image, size_t width, size_t height, unsigned channels,
                         uint64_t seed, struct clmem_error *err);
/* Kirk & Hwu Fig 4.1's edge check: whether (row, col) is a pixel of the image. */
int clmem_image_inside(ptrdiff_t row, ptrdiff_t col, size_t height, size_t width);

/* ---- the shipped parameter database's files (paramdb.c) ---- */
/* Every *.json file of `dir`, in name order: {"format": 1, "level":
 * "device"|"family"|"vendor"|"any", "match": "...", (none for any)
 * "rows": [{"workload", "table", "type": "gpu"|"cpu"|"accelerator"|"any",
 * "values": {NAME: number, ...}, "provenance": {"device", "driver",
 * "date", "command", "note"?}}]}. Checked for shape and types; which
 * names a table's values take is the harness's to check (params.c). A
 * missing directory, a file that is not such JSON: CLMEM_ERR_USAGE with a
 * message naming the file (and the row). */
#define CLMEM_PDB_MAX_VALUES 16
struct clmem_pdb_row {
    char file[1024]; /* its file's path, for messages */
    size_t index;    /* its place among the file's rows, from 1 */
    int level;       /* 0 device, 1 family, 2 vendor, 3 any */
    char match[128]; /* "" at level any */
    char workload[32], table[32], type[16];
    size_t n_values;
    char names[CLMEM_PDB_MAX_VALUES][32];
    double values[CLMEM_PDB_MAX_VALUES];
    struct {
        char device[256], driver[256], date[256], command[256], note[256];
    } provenance;
    int fitted; /* read from the user's fitted rows (clmem_pdb_load_fitted) */
};
struct clmem_pdb {
    struct clmem_pdb_row *rows; /* the files' rows, file after file, each file's in order */
    size_t n_rows, n_files;
};
int clmem_pdb_load(const char *dir, struct clmem_pdb *db, struct clmem_error *err);
/* The user's fitted rows (`clmem tune`'s, paramdb_fitted.c): every *.json
 * file of `dir` (a state directory: missing is none) appended to db, each
 * row marked fitted. A file or directory that is not to be trusted (as
 * clmem_state_open says) is passed over, *skipped saying why (the first
 * such); a file that is not the shipped format is an error, as a shipped
 * file's. */
int clmem_pdb_load_fitted(const char *dir, struct clmem_pdb *db, char *skipped,
                          size_t skipped_size, struct clmem_error *err);
/* One file's rows (the shipped format) appended to db. */
int clmem_pdb_parse(const char *path, const char *text, size_t len, struct clmem_pdb *db,
                    struct clmem_error *err);
/* Writes `rows` as one file of the shipped format at `path` (atomically;
 * 0600 with `private_file`, a state file), at level `level` ("device")
 * matching `match`, each row's provenance as it holds it. */
int clmem_pdb_write(const char *path, int private_file, const char *level, const char *match,
                    const char *comment, const struct clmem_pdb_row *rows, size_t n,
                    struct clmem_error *err);
void clmem_pdb_free(struct clmem_pdb *db);

#endif
