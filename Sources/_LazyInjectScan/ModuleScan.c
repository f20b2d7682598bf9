#include "ModuleScan.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#if defined(__APPLE__)
#include <mach-o/dyld.h>
#include <mach-o/getsect.h>
#include <mach-o/loader.h>
#include <objc/runtime.h>
#include <pthread.h>
#include <stdlib.h>
#endif
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
static const void *relative(const int32_t *field) { return (const char *)field + *field; }

/// The context descriptor a pointer-sized slot holds: signed on arm64e, as the runtime signs the
/// context descriptor references it reads through a slot (TargetSignedContextPointer).
static const context_descriptor *indirect_context(const void *slot) {
#if __has_feature(ptrauth_calls)
  const context_descriptor *__ptrauth(ptrauth_key_process_independent_data, 1, 0xae86) const
      *indirect = slot;
#else
  const context_descriptor *const *indirect = slot;
#endif
  return *indirect;
}

/// A context's parent: NULL for a module, which has none. The parent is a relative indirectable
/// pointer: with its low bit set, it points to a slot that holds the parent (a parent in another
/// image, as the compiler may emit for a type nested in an extension of another module's type).
static const context_descriptor *parent_of(const context_descriptor *context) {
  int32_t offset = context->parent;
  if (offset == 0) {
    return NULL;
  }
  if ((offset & 1) == 0) {
    return relative(&context->parent);
  }
  return indirect_context((const char *)&context->parent + (offset & ~1));
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
    names[count++] = relative(&context->name);
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
  const char *moduleName = relative(&context->name);
  if (scan->module == NULL) {
    scan->body(LAZYINJECT_FOUND_MODULE, NULL, moduleName, scan->context);
    return;
  }
  if (strcmp(moduleName, scan->module) != 0) {
    return;
  }
  const char *name = relative(&descriptor->name);
  if (isGeneric) {
    char qualified[1024];
    qualified_name(descriptor, qualified, sizeof(qualified));
    scan->body(LAZYINJECT_FOUND_GENERIC_CLASS, NULL, qualified, scan->context);
    return;
  }
  metadata_response response = {NULL, 0};
  if (descriptor->accessFunction != 0) {
    const void *accessor = relative(&descriptor->accessFunction);
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
static void visit_records(const void *start, uintptr_t length, scan *scan) {
  const int32_t *record = start;
  for (uintptr_t index = 0; index < length / sizeof(int32_t); index++, record++) {
    int32_t offset = *record;
    const char *target = (const char *)record + (offset & ~3);
    switch (offset & 3) {
    case 0:
      visit((const context_descriptor *)target, scan);
      break;
    case 1: {
      const context_descriptor *indirect = indirect_context(target);
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

#if defined(__APPLE__)

/// The images whose records are scanned: every image the Objective-C runtime reports loaded,
/// outside the dyld shared cache (whose system images declare no class of an app's module), as
/// the Swift runtime (ImageInspectionMachO.cpp) and Swift Testing (SectionBounds.swift) collect
/// them. Images are never unloaded once Swift code is in them, so a header stays valid.
static pthread_mutex_t images_lock = PTHREAD_MUTEX_INITIALIZER;
static const struct mach_header **images = NULL;
static size_t image_count = 0, image_capacity = 0;

/// Called by the Objective-C runtime for each image loaded, those already loaded included, on the
/// thread that loads it.
static void image_loaded(const struct mach_header *header) {
  if ((header->flags & MH_DYLIB_IN_CACHE) != 0) {
    return;
  }
  pthread_mutex_lock(&images_lock);
  if (image_count == image_capacity) {
    size_t capacity = image_capacity == 0 ? 64 : image_capacity * 2;
    const struct mach_header **grown = realloc(images, capacity * sizeof(*images));
    if (grown == NULL) {
      abort();
    }
    images = grown;
    image_capacity = capacity;
  }
  images[image_count++] = header;
  pthread_mutex_unlock(&images_lock);
}

static pthread_once_t images_once = PTHREAD_ONCE_INIT;
static void collect_images(void) { objc_addLoadImageFunc(image_loaded); }

int _lazyinject_scan_classes(const char *module, _lazyinject_scan_body body, void *context) {
  pthread_once(&images_once, collect_images);
  scan scan = {module, body, context};
  // The list is copied, then walked unlocked: a metadata accessor may load an image.
  pthread_mutex_lock(&images_lock);
  size_t count = image_count;
  const struct mach_header **headers = malloc((count == 0 ? 1 : count) * sizeof(*headers));
  if (headers == NULL) {
    abort();
  }
  memcpy(headers, images, count * sizeof(*headers));
  pthread_mutex_unlock(&images_lock);
  for (size_t image = 0; image < count; image++) {
    const char *sections[] = {"__swift5_types", "__swift5_types2"};
    for (size_t index = 0; index < sizeof(sections) / sizeof(sections[0]); index++) {
      unsigned long size = 0;
#if __LP64__
      const uint8_t *data = getsectiondata(
          (const struct mach_header_64 *)headers[image], "__TEXT", sections[index], &size);
#else
      const uint8_t *data = getsectiondata(headers[image], "__TEXT", sections[index], &size);
#endif
      if (data != NULL) {
        visit_records(data, size, &scan);
      }
    }
  }
  free(headers);
  return 1;
}

#elif defined(__ELF__)

/// The start of the runtime's `MetadataSections` (SwiftShims/MetadataSections.h): a version,
/// three words, then address ranges, the type metadata records' third. Every version has them.
typedef struct {
  uintptr_t start;
  uintptr_t length;
} section_range;
typedef struct {
  uintptr_t version;
  const void *baseAddress;
  void *unused0;
  void *unused1;
  section_range protocols;
  section_range protocolConformances;
  section_range typeMetadata;
} metadata_sections;

/// Exported by the Swift runtime on ELF platforms; weak, so that a runtime without it reads as
/// "no records".
extern void swift_enumerateAllMetadataSections(
    bool (*body)(const void *sections, void *context), void *context) __attribute__((weak));

static bool visit_sections(const void *sections, void *context) {
  const metadata_sections *metadata = sections;
  if (metadata->version >= 1) {
    visit_records(
        (const void *)metadata->typeMetadata.start, metadata->typeMetadata.length, context);
  }
  return true;
}

int _lazyinject_scan_classes(const char *module, _lazyinject_scan_body body, void *context) {
  if (swift_enumerateAllMetadataSections == NULL) {
    return 0;
  }
  scan scan = {module, body, context};
  swift_enumerateAllMetadataSections(visit_sections, &scan);
  return 1;
}

#else

int _lazyinject_scan_classes(const char *module, _lazyinject_scan_body body, void *context) {
  (void)module;
  (void)body;
  (void)context;
  return 0;
}

#endif
