/**
 * @file diskbench/common.h
 * @brief Macros shared by every public header: export marker, C++ guards,
 *        deprecation, and the size-prefixed struct helpers.
 *
 * Structs the caller hands in (option structs, the engine's ops table, a
 * custom phase's callbacks, diskbench_report_info) start with `size_t sz`,
 * the size the caller's headers gave them. The library knows each such
 * struct up to the end of its last member, not up to its sizeof, and
 * reads no byte of the caller's struct past sz:
 * - A smaller sz is an older caller: the members past it take their
 *   defaults.
 * - Every byte from the end of the last member this library knows up to
 *   sz must be zero, else the call fails with -E2BIG. That covers a newer
 *   caller's members, and also this struct's own tail padding when sz is
 *   sizeof: a newer header may put its next member there without
 *   changing sizeof, and a request this library cannot honour is refused,
 *   never ignored.
 * - The public structs have no tail padding on LP64 and i386 (tests/api
 *   checks the ABI it is built for): where alignment would leave some, a
 *   member named `reserved` fills it, and it must be zero. An initializer zeroes every
 *   member it does not name, but C does not promise to clear padding
 *   (GCC at -O2 leaves it as the stack was), so this is what lets a
 *   struct made by its `*_INIT` macro or any other initializer pass. The
 *   `_init()` functions clear all sz bytes. A struct filled some other
 *   way (memcpy, a union) must have zeros past its last member.
 * - An sz below `sizeof(size_t)` or above 4096 bytes (no struct of ours
 *   comes near that) is refused with -EINVAL before a byte past the sz
 *   field is read, and an `_init()` function given such an sz stores it
 *   and writes nothing else, so that the call reading the struct refuses
 *   it.
 *
 * One rule for NULL holds for every public function: given NULL where it
 * expects an object (a histogram, a run, a result, ...), a getter returns
 * its "nothing" (0, 0.0, false, NULL, or "" for a string that always
 * exists, as a name, a directory or an errmsg), a function that can fail
 * returns -EINVAL, and a `_free()` or another function returning nothing
 * does nothing. The same holds for a NULL out-parameter (-EINVAL). Nothing
 * crashes; individual functions note only what differs from this rule
 * (a NULL option struct means the defaults, a NULL user_data is passed on).
 *
 * @defgroup common Common definitions
 * @{
 */
#ifndef DISKBENCH_COMMON_H
#define DISKBENCH_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
/** Opens a block of declarations with C linkage when compiled as C++. */
# define DISKBENCH_BEGIN_DECLS extern "C" {
/** Closes a block opened by DISKBENCH_BEGIN_DECLS. */
# define DISKBENCH_END_DECLS }
#else
/** Opens a block of declarations with C linkage; nothing in C. */
# define DISKBENCH_BEGIN_DECLS
/** Closes a block opened by DISKBENCH_BEGIN_DECLS; nothing in C. */
# define DISKBENCH_END_DECLS
#endif

/**
 * Marks a declaration as part of the exported API.
 *
 * The library is built with hidden visibility; only declarations carrying this
 * marker (and listed in the version script) leave the shared object.
 */
#if defined(_WIN32) || defined(__CYGWIN__)
# ifdef DISKBENCH_BUILDING
#  define DISKBENCH_API __declspec(dllexport)
# else
#  define DISKBENCH_API __declspec(dllimport)
# endif
#elif defined(__GNUC__) && __GNUC__ >= 4
# define DISKBENCH_API __attribute__((visibility("default")))
#else
# define DISKBENCH_API
#endif

/** Marks a declaration as deprecated, naming what to use instead. */
#if defined(__GNUC__) || defined(__clang__)
# define DISKBENCH_DEPRECATED(msg) __attribute__((deprecated(msg)))
#else
# define DISKBENCH_DEPRECATED(msg)
#endif

/**
 * @def DISKBENCH_DEPRECATED_FOR(f)
 * Marks a 0.x name that 1.0 renamed to @p f. The old name keeps working
 * (same symbol, same behaviour) and by default compiles without a word,
 * so that a program written against 0.1 or 0.2 builds unchanged, also
 * with -Werror. Define `DISKBENCH_DEPRECATION_WARNINGS` before including
 * a header to be warned at each use of an old name, or
 * `DISKBENCH_DEPRECATE_HARD` to have the old names not declared at all.
 */
#if defined(DISKBENCH_DEPRECATION_WARNINGS)
# define DISKBENCH_DEPRECATED_FOR(f) DISKBENCH_DEPRECATED("use " #f "()")
#else
# define DISKBENCH_DEPRECATED_FOR(f)
#endif

/**
 * @def DISKBENCH_NULLPTR
 * The null pointer of the `*_INIT` macros' pointer members: `0` in C (a
 * null pointer constant, as `NULL` is: the structs they make are the same),
 * and `nullptr` in C++11 and later (`NULL` before), so that a C++ program
 * built with `-Wzero-as-null-pointer-constant -Werror` takes the macros as
 * they are (clang++ warns of `NULL` too).
 * @since 1.9
 */
#if defined(__cplusplus) && (__cplusplus >= 201103L || \
	(defined(_MSVC_LANG) && _MSVC_LANG >= 201103L))
# define DISKBENCH_NULLPTR nullptr
#elif defined(__cplusplus)
# define DISKBENCH_NULLPTR NULL
#else
# define DISKBENCH_NULLPTR 0
#endif

/**
 * @def DISKBENCH_CAST(type, v)
 * @p v converted to @p type in the headers' macros: `((type)(v))` in C,
 * `static_cast<type>(v)` in C++, so that a C++ program built with
 * `-Wold-style-cast -Werror` takes the macros as they are.
 * @since 1.9
 */
/**
 * @def DISKBENCH_PTR_CAST(type, p)
 * Pointer @p p seen as another object pointer @p type (bytes of a struct,
 * as DISKBENCH_HAS_FIELD() reads them): `((type)(p))` in C,
 * `reinterpret_cast<type>(p)` in C++.
 * @since 1.9
 */
#ifdef __cplusplus
# define DISKBENCH_CAST(type, v) (static_cast<type>(v))
# define DISKBENCH_PTR_CAST(type, p) (reinterpret_cast<type>(p))
#else
# define DISKBENCH_CAST(type, v) ((type)(v))
# define DISKBENCH_PTR_CAST(type, p) ((type)(p))
#endif

/**
 * True if the size-prefixed struct at @p p is large enough to hold @p field.
 *
 * Structs the library hands out start with `size_t sz`, the size the library
 * filled in. A caller built against newer headers than the library it runs
 * with tests a newer member with this macro before reading it.
 */
#define DISKBENCH_HAS_FIELD(p, field) \
	(DISKBENCH_CAST(size_t, DISKBENCH_PTR_CAST(const char *, &(p)->field) - \
			       DISKBENCH_PTR_CAST(const char *, (p))) + \
	 sizeof((p)->field) <= (p)->sz)

/**
 * @def DISKBENCH_RESULT_ARRAY(a)
 * An array of results as a function that only reads them takes it
 * (`const struct diskbench_result *const *`), from any of the forms a caller
 * has: results it owns (`struct diskbench_result *[]`, from
 * diskbench_result_decode()), results it borrows (`const struct
 * diskbench_result *[]`, from diskbench_run_result_get()), either with
 * const elements, or NULL. In C11 and later it is a checked conversion, and
 * anything else fails to compile; C++ converts these forms by itself, and
 * older C gets a plain cast. diskbench_result_merge() and
 * diskbench_report_add() apply it to their array argument, so that a
 * caller needs no cast.
 */
#if !defined(__cplusplus) && defined(__STDC_VERSION__) && \
	__STDC_VERSION__ >= 201112L
# define DISKBENCH_RESULT_ARRAY(a) \
	((const struct diskbench_result *const *)_Generic((a), \
		struct diskbench_result **: (a), \
		struct diskbench_result *const *: (a), \
		const struct diskbench_result **: (a), \
		const struct diskbench_result *const *: (a), \
		void *: (a)))
#else
# define DISKBENCH_RESULT_ARRAY(a) \
	DISKBENCH_CAST(const struct diskbench_result *const *, (a))
#endif

DISKBENCH_BEGIN_DECLS

/**
 * Frees memory that the library allocated and handed to the caller.
 *
 * Use this, never free(), for buffers whose documentation says so: the
 * library and the application may use different allocators.
 *
 * @param[in] ptr memory to free; NULL is allowed and does nothing
 */
DISKBENCH_API void diskbench_free(void *ptr);

DISKBENCH_END_DECLS

/** @} */
#endif /* DISKBENCH_COMMON_H */
