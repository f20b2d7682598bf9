#define _GNU_SOURCE  // dladdr, on Linux.
#include "Conformances.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "Records.h"

// The layouts are the Swift ABI's (include/swift/ABI/Metadata.h, MetadataValues.h).

/// Metadata kinds (MetadataKind.def): a class's is 0 or, above the last enumerated kind, an
/// Objective-C isa pointer. The flag of an existential's ExistentialTypeFlags that says a
/// superclass constraint precedes its protocols.
enum {
  CLASS_KIND = 0, EXISTENTIAL_KIND = 0x303, LAST_ENUMERATED_KIND = 0x7FF,
  HAS_SUPERCLASS = 0x40000000, PROTOCOL_CAPACITY = 8, REGISTRY_CAPACITY = 4,
};

/// A protocol conformance descriptor: the protocol (a relative indirectable pointer; on platforms
/// with Objective-C interop, bit 1 marks an Objective-C protocol), the conforming type (read as
/// the flags say), the witness table pattern, and flags: the type reference's kind in bits 3–5
/// (0: a direct type descriptor, 1: an indirect one, 2 and 3: an Objective-C class), the number
/// of conditional requirements in bits 8–15.
typedef struct {
  int32_t protocol;
  int32_t type;
  int32_t witnessTablePattern;
  uint32_t flags;
} conformance_descriptor;

/// Exported by the Swift runtime: a nominal type's descriptor; NULL for a class that is not a
/// Swift one, and for types of other kinds.
extern const void *swift_getTypeContextDescriptor(const void *metadata);

/// The conformances to one protocol found so far, in load order.
typedef struct {
  const void *protocol;
  size_t images;  // How many images' records were read for it.
  const conformance_descriptor **records;
  size_t count;
  bool objective_c;  // An Objective-C class conforms: the records cannot say which.
} conformances;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static conformances found[PROTOCOL_CAPACITY];  // Guarded by `lock`, as is `protocol_count`.
static size_t protocol_count = 0;

/// A bit for each protocol of `found` (`filter_bit`): most records name a protocol that none is,
/// and one test of this word passes them by. Guarded by `lock`.
static uint64_t watched = 0;

/// The bit of `watched` for a protocol's descriptor.
static uint64_t filter_bit(const void *descriptor) {
  return 1ull << (((uint64_t)(uintptr_t)descriptor * 0x9E3779B97F4A7C15ull) >> 58);
}

/// A new entry of `found` for the protocol `descriptor`; NULL past the capacity.
static conformances *add_protocol(const void *descriptor) {
  if (protocol_count == PROTOCOL_CAPACITY) {
    return NULL;
  }
  watched |= filter_bit(descriptor);
  conformances *own = &found[protocol_count++];
  own->protocol = descriptor;
  return own;
}

/// The descriptors of the classes `LazyInject.InitializerRegistry` in the records of the first
/// `registry_images` images: one per copy of LazyInject in the process. Guarded by `lock`.
static const context_descriptor *registries[REGISTRY_CAPACITY];
static size_t registry_count = 0;
static size_t registry_images = 0;

/// The Swift runtime's CustomStringConvertible, to which each copy's InitializerRegistry conforms.
#define LABEL(name) #name
#define SYMBOL(prefix, name) LABEL(prefix) name
extern const char string_convertible[]
    __asm__(SYMBOL(__USER_LABEL_PREFIX__, "$ss23CustomStringConvertibleMp"));

/// The descriptor of the one Swift protocol of the existential metadata `existential`, with no
/// superclass constraint, else NULL.
static const void *protocol_of(const void *existential) {
  const uintptr_t *words = existential;
  // Flags and number of protocols, 32 bits each, then the protocols: on 32-bit targets too.
  const uint32_t *counts = (const uint32_t *)(words + 1);
  if (words[0] != EXISTENTIAL_KIND || counts[1] != 1 || (counts[0] & HAS_SUPERCLASS) != 0) {
    return NULL;
  }
  uintptr_t reference = *(const uintptr_t *)(counts + 2);
  return (reference & 1) != 0 ? NULL : (const void *)reference;  // Bit 0: Objective-C.
}

/// The conforming type's descriptor; NULL for an Objective-C class.
static const context_descriptor *type_of(const conformance_descriptor *descriptor) {
  unsigned kind = (descriptor->flags >> 3) & 7;
  if (kind == 0) {
    return _lazyinject_relative(&descriptor->type);
  }
  if (kind == 1) {
    return _lazyinject_indirect_context(_lazyinject_relative(&descriptor->type));
  }
  return NULL;
}

static bool is_conditional(const conformance_descriptor *descriptor) {
  return ((descriptor->flags >> 8) & 0xFF) != 0;
}

/// Notes `type`, which conforms to CustomStringConvertible in the image `image`, if it is a copy's
/// `LazyInject.InitializerRegistry` in an image not read yet.
static void note_registry(const context_descriptor *type, size_t image) {
  int is_generic = 0;
  const context_descriptor *module = _lazyinject_module_of(type, &is_generic);
  if (module != NULL && image >= registry_images && registry_count < REGISTRY_CAPACITY &&
      strcmp(_lazyinject_relative(&type->name), "InitializerRegistry") == 0 &&
      strcmp(_lazyinject_relative(&module->name), "LazyInject") == 0) {
    registries[registry_count++] = type;
  }
}

/// Notes, for each protocol of `found` that has not read the image `image`, its conformances
/// among the records in `[start, start + length)`: 32-bit relative pointers to conformance
/// descriptors. One pass over an image's records serves every protocol.
static void note_conformances(const void *start, uintptr_t length, size_t image, void *context) {
  (void)context;
  const int32_t *record = start;
  for (uintptr_t index = 0; index < length / sizeof(int32_t); index++, record++) {
    const conformance_descriptor *descriptor = _lazyinject_relative(record);
    int32_t offset = descriptor->protocol;
    if ((offset & 2) != 0) {
      continue;  // An Objective-C protocol.
    }
    const char *target = (const char *)&descriptor->protocol + (offset & ~3);
    const void *protocol =
        (offset & 1) != 0 ? (const void *)_lazyinject_indirect_context(target) : (const void *)target;
    if (protocol == string_convertible) {
      note_registry(type_of(descriptor), image);
    }
    if ((watched & filter_bit(protocol)) == 0) {
      continue;  // A protocol of no entry.
    }
    for (size_t entry = 0; entry < protocol_count; entry++) {
      conformances *own = &found[entry];
      if (own->protocol != protocol || own->images > image) {
        continue;
      }
      if (type_of(descriptor) == NULL) {
        own->objective_c = true;
        continue;
      }
      const conformance_descriptor **grown =
          realloc(own->records, (own->count + 1) * sizeof(*own->records));
      if (grown == NULL) {
        abort();
      }
      grown[own->count++] = descriptor;
      own->records = grown;
    }
  }
}

/// The conformances to the protocol of the existential metadata `protocol`, with the records of
/// every image loaded read: one pass over the images that some protocol has not read. NULL for a
/// protocol that the records cannot answer, or past the capacity. Call with `lock` held.
static conformances *conformances_to(const void *protocol) {
  const void *descriptor = protocol_of(protocol);
  if (descriptor == NULL || !_lazyinject_records_are_readable()) {
    return NULL;
  }
  conformances *own = NULL;
  for (size_t entry = 0; entry < protocol_count && own == NULL; entry++) {
    own = found[entry].protocol == descriptor ? &found[entry] : NULL;
  }
  if (own == NULL) {
    own = add_protocol(descriptor);
  }
  if (own == NULL) {
    return NULL;
  }
  size_t first = own->images;
  for (size_t entry = 0; entry < protocol_count; entry++) {
    first = found[entry].images < first ? found[entry].images : first;
  }
  // Most often no image is new, and this reads none.
  size_t images = _lazyinject_each_image(RECORDS_CONFORMANCES, first, note_conformances, NULL);
  for (size_t entry = 0; entry < protocol_count; entry++) {
    found[entry].images = images;
  }
  registry_images = images;
  return own;
}

int _lazyinject_conformances_are_readable(void) { return _lazyinject_records_are_readable(); }

void _lazyinject_watch(const void *protocol) {
  const void *descriptor = protocol_of(protocol);
  pthread_mutex_lock(&lock);
  bool known = descriptor == NULL;
  for (size_t entry = 0; entry < protocol_count && !known; entry++) {
    known = found[entry].protocol == descriptor;
  }
  if (!known) {
    add_protocol(descriptor);
  }
  pthread_mutex_unlock(&lock);
}

/// Whether `descriptor`, a type's, is one of those that `own` says conform: 1, 0, or -1 for a
/// conditional conformance.
static int lookup(const conformances *own, const void *descriptor) {
  for (size_t index = 0; index < own->count; index++) {
    if (type_of(own->records[index]) == descriptor) {
      return is_conditional(own->records[index]) ? -1 : 1;
    }
  }
  return 0;
}

int _lazyinject_conforms(const void *type, const void *protocol) {
  pthread_mutex_lock(&lock);
  conformances *own = conformances_to(protocol);
  int answer = -1;
  if (own != NULL) {
    // A type of no nominal descriptor (a tuple, a function) gets 0: no record names it, and the
    // runtime's built-in conformances are the standard library's protocols', never LazyInject's.
    answer = own->objective_c ? -1 : lookup(own, swift_getTypeContextDescriptor(type));
    uintptr_t kind = *(const uintptr_t *)type;
    if (kind == CLASS_KIND || kind > LAST_ENUMERATED_KIND) {
      // The superclasses: the word after a class's kind or isa.
      for (const uintptr_t *class = (const uintptr_t *)((const uintptr_t *)type)[1];
           class != NULL && answer == 0; class = (const uintptr_t *)class[1]) {
        answer = lookup(own, swift_getTypeContextDescriptor(class));
      }
    }
  }
  pthread_mutex_unlock(&lock);
  return answer;
}

/// Exported by the Swift runtime: the witness table of `conformance` for `type`.
extern const void *swift_getWitnessTable(
    const void *conformance, const void *type, const void *const *arguments);

size_t _lazyinject_each_conformer(
    const void *protocol, size_t first, _lazyinject_conformer_body body, void *context) {
  // The new part of the list is copied, then walked unlocked: a metadata accessor may load an
  // image, or ask a question of its own.
  pthread_mutex_lock(&lock);
  conformances *own = conformances_to(protocol);
  size_t count = own == NULL ? 0 : own->count;
  size_t new_count = count > first ? count - first : 0;
  const conformance_descriptor **records = malloc((new_count == 0 ? 1 : new_count) * sizeof(*records));
  if (records == NULL) {
    abort();
  }
  if (new_count > 0) {
    memcpy(records, own->records + first, new_count * sizeof(*records));
  }
  pthread_mutex_unlock(&lock);
  for (size_t index = 0; index < new_count; index++) {
    const context_descriptor *type = type_of(records[index]);
    int is_generic = 0;
    const context_descriptor *module = _lazyinject_module_of(type, &is_generic);
    char name[1024];
    _lazyinject_qualified_name(type, name, sizeof(name));
    const void *metadata = is_generic ? NULL : _lazyinject_metadata(type);
    const void *table = metadata == NULL ? NULL : swift_getWitnessTable(records[index], metadata, NULL);
    const char *module_name = module == NULL ? "" : _lazyinject_relative(&module->name);
    body(metadata, table, name, module_name, context);
  }
  free(records);
  return count;
}

size_t _lazyinject_copies(const char **images, size_t capacity) {
  Dl_info info;
  pthread_mutex_lock(&lock);
  size_t count = 0;
  for (size_t index = 0; index < registry_count && count < capacity; index++) {
    if (dladdr(registries[index], &info) != 0) {
      images[count++] = info.dli_fname;
    }
  }
  pthread_mutex_unlock(&lock);
  return count;
}
