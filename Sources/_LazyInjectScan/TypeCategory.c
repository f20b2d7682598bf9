#include "TypeCategory.h"

#include <stdint.h>

/// Metadata kinds of the Swift ABI (MetadataKind.def): every kind above the last enumerated one
/// is an Objective-C class's isa pointer. The runtime's shims read the class kinds the same way
/// (`_lazyinject_is_weakly_referenceable`).
enum {
  CLASS_KIND = 0, STRUCT_KIND = 0x200, ENUM_KIND = 0x201, FOREIGN_CLASS_KIND = 0x203,
  EXISTENTIAL_KIND = 0x303, OBJC_CLASS_WRAPPER_KIND = 0x305, LAST_ENUMERATED_KIND = 0x7FF,
};

int _lazyinject_type_category(const void *type) {
  uintptr_t kind = *(const uintptr_t *)type;
  if (kind == CLASS_KIND || kind > LAST_ENUMERATED_KIND || kind == FOREIGN_CLASS_KIND ||
      kind == OBJC_CLASS_WRAPPER_KIND)
    return LAZYINJECT_CATEGORY_CLASS;
  if (kind == STRUCT_KIND || kind == ENUM_KIND) return LAZYINJECT_CATEGORY_VALUE;
  return kind == EXISTENTIAL_KIND ? LAZYINJECT_CATEGORY_EXISTENTIAL : LAZYINJECT_CATEGORY_OTHER;
}
