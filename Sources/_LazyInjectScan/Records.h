// The binary's records that the Swift runtime reads, and the images that hold them: what the
// scans of this target share. The layouts are the Swift ABI's (include/swift/ABI/Metadata.h,
// MetadataValues.h), written out for the few fields read here. Private to this target.
#ifndef LAZYINJECT_RECORDS_H
#define LAZYINJECT_RECORDS_H

#include <stddef.h>
#include <stdint.h>
#if __has_include(<ptrauth.h>)
#include <ptrauth.h>
#endif

/// A context descriptor: flags, then a relative pointer to its parent. A module's and a type's
/// name follows; a type's metadata accessor (0 when absent: the pointer is nullable) follows its
/// name.
typedef struct {
  uint32_t flags;
  int32_t parent;
  int32_t name;
  int32_t accessFunction;
} context_descriptor;

/// The target of a relative direct pointer.
///
/// Inline, as the next: the scan of the conformance records calls both for each record of the
/// process (tens of thousands in an app), where a call cost a fifth of the scan.
static inline const void *_lazyinject_relative(const int32_t *field) {
  return (const char *)field + *field;
}

/// The context descriptor a pointer-sized slot holds: signed on arm64e, as the runtime signs the
/// context descriptor references it reads through a slot (TargetSignedContextPointer).
static inline const context_descriptor *_lazyinject_indirect_context(const void *slot) {
#if __has_feature(ptrauth_calls)
  const context_descriptor *__ptrauth(ptrauth_key_process_independent_data, 1, 0xae86) const
      *indirect = slot;
#else
  const context_descriptor *const *indirect = slot;
#endif
  return *indirect;
}

/// ContextDescriptorFlags: the kind is in the low five bits; a generic context's flag.
enum {
  CONTEXT_KIND_MASK = 0x1F, CONTEXT_KIND_MODULE = 0, CONTEXT_KIND_CLASS = 16,
  CONTEXT_IS_GENERIC = 0x80,
};

/// The module that declares `type`, a type's descriptor, and whether `type` or a type it is
/// nested in is generic; NULL if its chain of parents reaches no module (an unbound slot).
const context_descriptor *_lazyinject_module_of(const context_descriptor *type, int *is_generic);

/// Writes to `buffer` the name of the type `descriptor` after the names of the types it is nested
/// in directly, outermost first, as `Outer.Cache`. A type nested in an extension or a private
/// context is named from there: the records name an extended type only in mangled form.
void _lazyinject_qualified_name(const context_descriptor *descriptor, char *buffer, size_t size);

/// The metadata of a non-generic type, from its descriptor's metadata accessor (which runs the
/// type's metadata initialization, and on Darwin may run the `+initialize` of Objective-C
/// superclasses); NULL if it has no accessor or the accessor returns none.
const void *_lazyinject_metadata(const context_descriptor *type);

/// Which records of an image: the type metadata records (`swift5_type_metadata` on ELF,
/// `__swift5_types` and `__swift5_types2` on Mach-O), or the protocol conformance records
/// (`swift5_protocol_conformances`, `__swift5_proto`).
typedef enum { RECORDS_TYPES, RECORDS_CONFORMANCES } records_kind;

/// Called with each range of records (32-bit relative pointers) and the index of the image that
/// holds them, counted in load order from 0.
typedef void (*records_body)(const void *start, uintptr_t length, size_t image, void *context);

/// Whether the platform keeps records this target can read: Darwin, and ELF platforms whose
/// Swift runtime exports `swift_enumerateAllMetadataSections`.
int _lazyinject_records_are_readable(void);

/// Calls `body` with the records of `kind` of each image loaded in the process, from the
/// `first`th on, in the order they were loaded (on Darwin, the images outside the shared cache,
/// whose system images declare nothing of an app); returns how many there are, or 0 where the
/// platform keeps no records this can read. Images are never unloaded once Swift code is in them,
/// so the count only grows.
size_t _lazyinject_each_image(records_kind kind, size_t first, records_body body, void *context);

#endif
