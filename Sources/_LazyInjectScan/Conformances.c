#include "Conformances.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "Records.h"

// The layouts are the Swift ABI's (include/swift/ABI/Metadata.h, MetadataValues.h).

/// Metadata kinds (MetadataKind.def): a class's is 0 or, above the last enumerated kind, an
/// Objective-C isa pointer. The flag of an existential's ExistentialTypeFlags that says a
/// superclass constraint precedes its protocols.
enum {
  CLASS_KIND = 0, EXISTENTIAL_KIND = 0x303, LAST_ENUMERATED_KIND = 0x7FF,
  HAS_SUPERCLASS = 0x40000000, PROTOCOL_CAPACITY = 8,
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

/// The conformances to one protocol found so far.
typedef struct {
  const void *protocol;
  size_t images;
  const void **types;  // The descriptors of the types that conform unconditionally.
  const void **conditional;  // Those that conform only under conditions: the runtime decides.
  size_t type_count, conditional_count;
  bool objective_c;  // An Objective-C class conforms: the records cannot say which.
} conformances;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static conformances found[PROTOCOL_CAPACITY];  // Guarded by `lock`.

/// The descriptor of the one Swift protocol of the existential metadata `existential`, else NULL.
static const void *protocol_of(const void *existential) {
  const uintptr_t *words = existential;
  const uint32_t *counts = (const uint32_t *)(words + 1);  // Flags, then number of protocols.
  if (words[0] != EXISTENTIAL_KIND || counts[1] != 1) {
    return NULL;
  }
  uintptr_t reference = words[(counts[0] & HAS_SUPERCLASS) != 0 ? 3 : 2];
  return (reference & 1) != 0 ? NULL : (const void *)reference;  // Bit 0: Objective-C.
}

static void append(const void ***list, size_t *count, const void *descriptor) {
  const void **grown = realloc(*list, (*count + 1) * sizeof(**list));
  if (grown == NULL) {
    abort();
  }
  grown[(*count)++] = descriptor;
  *list = grown;
}

/// Notes in `context`, a `conformances`, those to its protocol among the records in
/// `[start, start + length)`: 32-bit relative pointers to conformance descriptors.
static void note_conformances(const void *start, uintptr_t length, void *context) {
  conformances *found = context;
  const int32_t *record = start;
  for (uintptr_t index = 0; index < length / sizeof(int32_t); index++, record++) {
    const conformance_descriptor *descriptor = _lazyinject_relative(record);
    int32_t offset = descriptor->protocol;
    const char *target = (const char *)&descriptor->protocol + (offset & ~3);
    const void *protocol =
        (offset & 1) != 0 ? (const void *)_lazyinject_indirect_context(target) : (const void *)target;
    if (protocol != found->protocol || (offset & 2) != 0) {
      continue;
    }
    unsigned kind = (descriptor->flags >> 3) & 7;
    const void *type = NULL;
    if (kind == 0) {
      type = _lazyinject_relative(&descriptor->type);
    } else if (kind == 1) {
      type = _lazyinject_indirect_context(_lazyinject_relative(&descriptor->type));
    }
    if (type == NULL) {
      found->objective_c = true;
    } else if (((descriptor->flags >> 8) & 0xFF) != 0) {
      append(&found->conditional, &found->conditional_count, type);
    } else {
      append(&found->types, &found->type_count, type);
    }
  }
}

static bool contains(const void **list, size_t count, const void *descriptor) {
  for (size_t index = 0; index < count; index++) {
    if (list[index] == descriptor) {
      return true;
    }
  }
  return false;
}

/// Whether `descriptor`, a type's, is one of those that `found` says conform: 1, 0, or -1 for
/// a conditional conformance.
static int lookup(const conformances *found, const void *descriptor) {
  if (contains(found->types, found->type_count, descriptor)) {
    return 1;
  }
  return contains(found->conditional, found->conditional_count, descriptor) ? -1 : 0;
}

int _lazyinject_conforms(const void *type, const void *protocol) {
  const void *descriptor = protocol_of(protocol);
  if (descriptor == NULL || !_lazyinject_records_are_readable()) {
    return -1;
  }
  pthread_mutex_lock(&lock);
  conformances *own = NULL;
  for (size_t index = 0; index < PROTOCOL_CAPACITY && own == NULL; index++) {
    if (found[index].protocol == NULL) {
      found[index].protocol = descriptor;
    }
    if (found[index].protocol == descriptor) {
      own = &found[index];
    }
  }
  int answer = -1;
  if (own != NULL) {
    // The images loaded since the last question, if any: most often none.
    own->images = _lazyinject_each_image(RECORDS_CONFORMANCES, own->images, note_conformances, own);
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
