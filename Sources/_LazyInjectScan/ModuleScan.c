#include "ModuleScan.h"

#include <stddef.h>
#include <string.h>

#include "Records.h"

typedef struct {
  const char *module;
  _lazyinject_scan_body body;
  void *context;
} scan;

static void visit(const context_descriptor *descriptor, scan *scan) {
  if ((descriptor->flags & CONTEXT_KIND_MASK) != CONTEXT_KIND_CLASS) {
    return;
  }
  int isGeneric = 0;
  const context_descriptor *module = _lazyinject_module_of(descriptor, &isGeneric);
  if (module == NULL) {
    return;  // A chain that reaches no module (an unbound slot): no module to count it in.
  }
  const char *moduleName = _lazyinject_relative(&module->name);
  if (scan->module == NULL) {
    scan->body(LAZYINJECT_FOUND_MODULE, NULL, moduleName, scan->context);
    return;
  }
  if (strcmp(moduleName, scan->module) != 0) {
    return;
  }
  const void *metadata = isGeneric ? NULL : _lazyinject_metadata(descriptor);
  if (metadata != NULL) {
    scan->body(LAZYINJECT_FOUND_CLASS, metadata, _lazyinject_relative(&descriptor->name),
               scan->context);
    return;
  }
  char qualified[1024];
  _lazyinject_qualified_name(descriptor, qualified, sizeof(qualified));
  _lazyinject_found found =
      isGeneric ? LAZYINJECT_FOUND_GENERIC_CLASS : LAZYINJECT_FOUND_CLASS_WITHOUT_METADATA;
  scan->body(found, NULL, qualified, scan->context);
}

/// Visits the type metadata records in `[start, start + length)`: 32-bit relative pointers to
/// type descriptors, whose low two bits say how (0: direct, 1: indirect; 2 and 3 name
/// Objective-C classes, which are not Swift classes of a module).
static void visit_records(const void *start, uintptr_t length, size_t image, void *context) {
  (void)image;
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
