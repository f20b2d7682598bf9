#include "ModuleScan.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "Records.h"

#if __has_include(<ptrauth.h>)
#include <ptrauth.h>
#endif

// The layouts below are the Swift ABI's (include/swift/ABI/Metadata.h, MetadataValues.h),
// written out for the few fields read here.

/// ContextDescriptorFlags: the kind is in the low five bits.
#define KIND_MASK 0x1F
#define KIND_MODULE 0
#define KIND_CLASS 16
#define FLAG_IS_GENERIC 0x80

/// A context's parent: NULL for a module, which has none. The parent is a relative indirectable
/// pointer: with its low bit set, it points to a slot that holds the parent (a parent in another
/// image, as the compiler may emit for a type nested in an extension of another module's type).
static const context_descriptor *parent_of(const context_descriptor *context) {
  int32_t offset = context->parent;
  if (offset == 0) {
    return NULL;
  }
  if ((offset & 1) == 0) {
    return _lazyinject_relative(&context->parent);
  }
  return _lazyinject_indirect_context((const char *)&context->parent + (offset & ~1));
}

/// Whether a context is a type (a class, struct or enum), whose name follows its parent.
static bool is_type(const context_descriptor *context) {
  return (context->flags & KIND_MASK) >= KIND_CLASS;
}

/// Writes to `buffer` the name of the type `descriptor` after the names of the types it is nested
/// in directly, outermost first, as `Outer.Cache`. A type nested in an extension or a private
/// context is named from there: the records name an extended type only in mangled form.
static void qualified_name(const context_descriptor *descriptor, char *buffer, size_t size) {
  const char *names[32];
  size_t count = 0;
  for (const context_descriptor *context = descriptor;
       context != NULL && is_type(context) && count < sizeof(names) / sizeof(names[0]);
       context = parent_of(context)) {
    names[count++] = _lazyinject_relative(&context->name);
  }
  size_t length = 0;
  buffer[0] = '\0';
  while (count > 0) {
    const char *name = names[--count];
    size_t needed = strlen(name) + (length > 0 ? 1 : 0);
    if (length + needed + 1 > size) {
      break;
    }
    if (length > 0) {
      buffer[length++] = '.';
    }
    memcpy(buffer + length, name, strlen(name) + 1);
    length += strlen(name);
  }
}

/// The metadata accessor of a non-generic type: takes a request (0: complete, blocking), returns
/// the metadata and its state, in Swift's calling convention.
typedef struct {
  const void *metadata;
  uintptr_t state;
} metadata_response;
typedef metadata_response (*metadata_accessor)(uintptr_t request) __attribute__((swiftcall));

typedef struct {
  const char *module;
  _lazyinject_scan_body body;
  void *context;
} scan;

static void visit(const context_descriptor *descriptor, scan *scan) {
  if ((descriptor->flags & KIND_MASK) != KIND_CLASS) {
    return;
  }
  bool isGeneric = false;
  const context_descriptor *context = descriptor;
  while (context != NULL && (context->flags & KIND_MASK) != KIND_MODULE) {
    isGeneric = isGeneric || (context->flags & FLAG_IS_GENERIC) != 0;
    context = parent_of(context);
  }
  if (context == NULL) {
    return;  // A chain that reaches no module (an unbound slot): no module to count it in.
  }
  const char *moduleName = _lazyinject_relative(&context->name);
  if (scan->module == NULL) {
    scan->body(LAZYINJECT_FOUND_MODULE, NULL, moduleName, scan->context);
    return;
  }
  if (strcmp(moduleName, scan->module) != 0) {
    return;
  }
  const char *name = _lazyinject_relative(&descriptor->name);
  if (isGeneric) {
    char qualified[1024];
    qualified_name(descriptor, qualified, sizeof(qualified));
    scan->body(LAZYINJECT_FOUND_GENERIC_CLASS, NULL, qualified, scan->context);
    return;
  }
  metadata_response response = {NULL, 0};
  if (descriptor->accessFunction != 0) {
    const void *accessor = _lazyinject_relative(&descriptor->accessFunction);
#if __has_feature(ptrauth_calls)
    accessor = ptrauth_sign_unauthenticated(accessor, ptrauth_key_function_pointer, 0);
#endif
    response = ((metadata_accessor)accessor)(0);
  }
  if (response.metadata != NULL) {
    scan->body(LAZYINJECT_FOUND_CLASS, response.metadata, name, scan->context);
  } else {
    char qualified[1024];
    qualified_name(descriptor, qualified, sizeof(qualified));
    scan->body(LAZYINJECT_FOUND_CLASS_WITHOUT_METADATA, NULL, qualified, scan->context);
  }
}

/// Visits the type metadata records in `[start, start + length)`: 32-bit relative pointers to
/// type descriptors, whose low two bits say how (0: direct, 1: indirect; 2 and 3 name
/// Objective-C classes, which are not Swift classes of a module).
static void visit_records(const void *start, uintptr_t length, void *context) {
  scan *scan = context;
  const int32_t *record = start;
  for (uintptr_t index = 0; index < length / sizeof(int32_t); index++, record++) {
    int32_t offset = *record;
    const char *target = (const char *)record + (offset & ~3);
    switch (offset & 3) {
    case 0:
      visit((const context_descriptor *)target, scan);
      break;
    case 1: {
      const context_descriptor *indirect = _lazyinject_indirect_context(target);
      if (indirect != NULL) {
        visit(indirect, scan);
      }
      break;
    }
    default:
      break;
    }
  }
}

int _lazyinject_scan_classes(const char *module, _lazyinject_scan_body body, void *context) {
  if (!_lazyinject_records_are_readable()) {
    return 0;
  }
  scan scan = {module, body, context};
  _lazyinject_each_image(RECORDS_TYPES, 0, visit_records, &scan);
  return 1;
}
