#include "Records.h"

#include <stdbool.h>
#include <string.h>

#if defined(__APPLE__)
#include <mach-o/dyld.h>
#include <mach-o/getsect.h>
#include <mach-o/loader.h>
#include <objc/runtime.h>
#include <pthread.h>
#include <stdlib.h>
#endif

/// A context's parent: NULL for a module, which has none.
static const context_descriptor *parent_of(const context_descriptor *context) {
  // A relative indirectable pointer: with its low bit set, it points to a slot that holds the
  // parent (a parent in another image, as the compiler may emit for a type nested in an
  // extension of another module's type).
  int32_t offset = context->parent;
  if (offset == 0) {
    return NULL;
  }
  if ((offset & 1) == 0) {
    return _lazyinject_relative(&context->parent);
  }
  return _lazyinject_indirect_context((const char *)&context->parent + (offset & ~1));
}

const context_descriptor *_lazyinject_module_of(const context_descriptor *type, int *is_generic) {
  *is_generic = 0;
  const context_descriptor *context = type;
  while (context != NULL && (context->flags & CONTEXT_KIND_MASK) != CONTEXT_KIND_MODULE) {
    *is_generic = *is_generic || (context->flags & CONTEXT_IS_GENERIC) != 0;
    context = parent_of(context);
  }
  return context;
}

/// Whether a context is a type (a class, struct or enum), whose name follows its parent.
static bool is_type(const context_descriptor *context) {
  return (context->flags & CONTEXT_KIND_MASK) >= CONTEXT_KIND_CLASS;
}

void _lazyinject_qualified_name(const context_descriptor *descriptor, char *buffer, size_t size) {
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

const void *_lazyinject_metadata(const context_descriptor *type) {
  if (type->accessFunction == 0) {
    return NULL;
  }
  const void *accessor = _lazyinject_relative(&type->accessFunction);
#if __has_feature(ptrauth_calls)
  accessor = ptrauth_sign_unauthenticated(accessor, ptrauth_key_function_pointer, 0);
#endif
  return ((metadata_accessor)accessor)(0).metadata;
}

#if defined(__APPLE__)

/// The images whose records are read: every image the Objective-C runtime reports loaded,
/// outside the dyld shared cache, as the Swift runtime (ImageInspectionMachO.cpp) and Swift
/// Testing (SectionBounds.swift) collect them. Images are never unloaded once Swift code is in
/// them, so a header stays valid.
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

int _lazyinject_records_are_readable(void) { return 1; }

size_t _lazyinject_each_image(records_kind kind, size_t first, records_body body, void *context) {
  pthread_once(&images_once, collect_images);
  // The new part of the list is copied, then walked unlocked: a metadata accessor that `body`
  // runs may load an image.
  pthread_mutex_lock(&images_lock);
  size_t count = image_count;
  if (count <= first) {  // Most often no image is new: nothing to copy.
    pthread_mutex_unlock(&images_lock);
    return count;
  }
  size_t new_count = count - first;
  const struct mach_header **headers = malloc(new_count * sizeof(*headers));
  if (headers == NULL) {
    abort();
  }
  memcpy(headers, images + first, new_count * sizeof(*headers));
  pthread_mutex_unlock(&images_lock);
  const char *types[] = {"__swift5_types", "__swift5_types2", NULL};
  const char *conformances[] = {"__swift5_proto", NULL};
  const char **sections = kind == RECORDS_TYPES ? types : conformances;
  for (size_t image = 0; image < new_count; image++) {
    for (const char **section = sections; *section != NULL; section++) {
      unsigned long size = 0;
#if __LP64__
      const uint8_t *data = getsectiondata(
          (const struct mach_header_64 *)headers[image], "__TEXT", *section, &size);
#else
      const uint8_t *data = getsectiondata(headers[image], "__TEXT", *section, &size);
#endif
      if (data != NULL) {
        body(data, size, first + image, context);
      }
    }
  }
  free(headers);
  return count;
}

#elif defined(__ELF__)

/// The start of the runtime's `MetadataSections` (SwiftShims/MetadataSections.h): a version,
/// three words, then address ranges. Every version has these.
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

typedef struct {
  records_kind kind;
  size_t first;
  size_t count;
  records_body body;
  void *context;
} image_walk;

static bool visit_image(const void *sections, void *context) {
  image_walk *walk = context;
  const metadata_sections *metadata = sections;
  size_t image = walk->count++;
  if (image >= walk->first && metadata->version >= 1) {
    section_range range =
        walk->kind == RECORDS_TYPES ? metadata->typeMetadata : metadata->protocolConformances;
    walk->body((const void *)range.start, range.length, image, walk->context);
  }
  return true;
}

int _lazyinject_records_are_readable(void) { return swift_enumerateAllMetadataSections != NULL; }

size_t _lazyinject_each_image(records_kind kind, size_t first, records_body body, void *context) {
  if (swift_enumerateAllMetadataSections == NULL) {
    return 0;
  }
  image_walk walk = {kind, first, 0, body, context};
  swift_enumerateAllMetadataSections(visit_image, &walk);
  return walk.count;
}

#else

int _lazyinject_records_are_readable(void) { return 0; }

size_t _lazyinject_each_image(records_kind kind, size_t first, records_body body, void *context) {
  (void)kind;
  (void)first;
  (void)body;
  (void)context;
  return 0;
}

#endif
