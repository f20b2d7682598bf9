// The classes of a module, read from the type metadata records the compiler emits for every
// type (the `swift5_type_metadata` section on ELF, `__swift5_types` and `__swift5_types2` on
// Mach-O), as the runtime's own conformance lookup and Swift Testing's discovery read them.
// Internal to LazyInjectChecks: the names start with an underscore and may change in any release.
#ifndef LAZYINJECT_MODULE_SCAN_H
#define LAZYINJECT_MODULE_SCAN_H

#include <stdint.h>

/// What `_lazyinject_scan_classes` found.
typedef enum {
  /// A non-generic class of the module: `value` is its metadata.
  LAZYINJECT_FOUND_CLASS = 0,
  /// A generic class of the module (or a class in a generic context): it has no metadata until
  /// specialized, so `value` is NULL; `name` has the types it is nested in, as `Outer.Cache`.
  LAZYINJECT_FOUND_GENERIC_CLASS = 1,
  /// With no module named: the name of a module that declares a class, once per class.
  LAZYINJECT_FOUND_MODULE = 2,
  /// A non-generic class of the module whose descriptor has no metadata accessor, or whose
  /// accessor returned no metadata: `value` is NULL; `name` as for a generic class.
  LAZYINJECT_FOUND_CLASS_WITHOUT_METADATA = 3,
} _lazyinject_found;

/// Called for each thing `_lazyinject_scan_classes` finds: `name` is the class's, or the
/// module's for `LAZYINJECT_FOUND_MODULE`.
typedef void (*_lazyinject_scan_body)(
    _lazyinject_found kind, const void *_Nullable value, const char *_Nonnull name,
    void *_Nullable context);

/// Calls `body` for every class declared in the module named `module` in the images loaded in
/// the process (on Darwin, those outside the shared cache), or with `module` NULL, for the module
/// of every class. Getting a class's metadata runs its metadata accessor, which on Darwin may run
/// the `+initialize` of its Objective-C superclasses. Returns 0 where the platform keeps no
/// records LazyInject can read.
int _lazyinject_scan_classes(
    const char *_Nullable module, _lazyinject_scan_body _Nonnull body, void *_Nullable context);

#endif
