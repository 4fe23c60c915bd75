/* tree-sitter-yaml's external scanner saves its indentation stack with
 * serialize() into the runtime's buffer of TREE_SITTER_SERIALIZATION_BUFFER_SIZE
 * bytes: a 10-byte header, then one 4-byte record per open block. It checks
 * the room left before each record, not after, so a stack deeper than 253
 * blocks (`- - - ... a`, 10,000 deep) writes 2 bytes past the buffer and
 * returns a length over it; the current runtime asserts on that length, and
 * without assertions the bytes land on the parser's own state (a crash in
 * ts_stack_pop_count). The scanner's function is compiled under another
 * name (grammars/CMakeLists.txt) and called here with room to spare; only
 * whole records that fit are kept, which deserialize() reads back as a
 * shallower stack, as the scanner's own bound intends. */
#include <string.h>

#include "tree_sitter/parser.h"

enum { kHeader = 10, kRecord = 4 };

unsigned ws_yaml_scanner_serialize_unbounded(void *payload, char *buffer);

unsigned tree_sitter_yaml_external_scanner_serialize(void *payload, char *buffer) {
  /* The scanner writes at most one record past the limit. */
  char room[TREE_SITTER_SERIALIZATION_BUFFER_SIZE + 2 * kRecord];
  unsigned length = ws_yaml_scanner_serialize_unbounded(payload, room);
  if (length > TREE_SITTER_SERIALIZATION_BUFFER_SIZE)
    length = kHeader + (TREE_SITTER_SERIALIZATION_BUFFER_SIZE - kHeader) / kRecord * kRecord;
  memcpy(buffer, room, length);
  return length;
}
