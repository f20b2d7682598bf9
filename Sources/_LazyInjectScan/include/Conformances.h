// Which types conform to a protocol, read from the binary's protocol conformance records.
// Internal to LazyInject: the names start with an underscore and may change in any release.
#ifndef LAZYINJECT_CONFORMANCES_H
#define LAZYINJECT_CONFORMANCES_H

/// Whether the type whose metadata is `type` (for a class, the class or one of its
/// superclasses) conforms to the one protocol of the existential type `protocol` (the metadata
/// of `(any P).self`), by the conformance records of the images loaded: 1 if it does, 0 if it
/// does not, -1 if the records cannot say (a conditional conformance of the type, one of an
/// Objective-C class, a protocol of another kind, or a platform with no records to read): the
/// Swift runtime must be asked then.
///
/// The Swift runtime answers a type that does not conform by searching every record of every
/// image, once per type and protocol; this reads each image's records once per protocol (for up
/// to eight protocols; -1 for any other), then looks a type up by its descriptor.
int _lazyinject_conforms(const void *_Nonnull type, const void *_Nonnull protocol);

#endif
