// Which types conform to a protocol, read from the binary's protocol conformance records.
// Internal to LazyInject: the names start with an underscore and may change in any release.
#ifndef LAZYINJECT_CONFORMANCES_H
#define LAZYINJECT_CONFORMANCES_H

#include <stddef.h>

/// Whether the type whose metadata is `type` (for a class, the class or one of its
/// superclasses) conforms to the one protocol of the existential type `protocol` (the metadata
/// of `(any P).self`), by the conformance records of the images loaded: 1 if it does, 0 if it
/// does not, -1 if the records cannot say (a conditional conformance of the type, one of an
/// Objective-C class, a protocol of another kind or with a superclass constraint, or a platform
/// with no records to read): the Swift runtime must be asked then. A type with no nominal
/// descriptor (a tuple, a function) gets 0, which is right for LazyInject's protocols: the
/// runtime builds in conformances only to the standard library's.
///
/// The Swift runtime answers a type that does not conform by searching every record of every
/// image, once per type and protocol; this reads each image's records once for every protocol
/// asked about or watched so far (up to eight; -1 for any other), then looks a type up by its
/// descriptor.
int _lazyinject_conforms(const void *_Nonnull type, const void *_Nonnull protocol);

/// Whether this platform keeps conformance records that these functions can read.
int _lazyinject_conformances_are_readable(void);

/// Has the next reading of records note the conformances to the protocol of the existential
/// type `protocol` too, so that one pass over each image's records serves every protocol watched
/// before it.
void _lazyinject_watch(const void *_Nonnull protocol);

/// Called for each type that conforms to a protocol: its metadata and the conformance's witness
/// table, or both NULL for a generic type (or one nested in a generic type), which has no
/// metadata until specialized (and for a descriptor without the metadata accessor that Swift's
/// compiler always emits); its name with the types it is nested in (`Outer.Module`), and its
/// module's name.
typedef void (*_lazyinject_conformer_body)(
    const void *_Nullable metadata, const void *_Nullable witnessTable, const char *_Nonnull name,
    const char *_Nonnull module, void *_Nullable context);

/// Calls `body` for the types that conform to the one protocol of the existential type
/// `protocol`, by the conformance records of the images loaded, in load order, from the
/// `first`th on; returns how many there are (an Objective-C class's conformance is not counted).
/// Getting a type's metadata runs its metadata accessor. Returns 0 where the records cannot
/// answer (see `_lazyinject_conforms`).
size_t _lazyinject_each_conformer(
    const void *_Nonnull protocol, size_t first, _lazyinject_conformer_body _Nonnull body,
    void *_Nullable context);

/// Writes to `images` the paths of the images that hold a copy of LazyInject (its class
/// InitializerRegistry), up to `capacity`, in load order; returns how many. Found in the
/// conformance records that the functions above read (each copy lists `InitializerRegistry:
/// CustomStringConvertible`): ask one of them first. More than one when libraries that each link
/// LazyInject statically are loaded together.
size_t _lazyinject_copies(const char *_Nullable *_Nonnull images, size_t capacity);

#endif
