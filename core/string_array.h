/*
 * string_array.h — the one growable array of strings: (items, count)
 * pairs such as struct string_list (policy.h), seatbelt's path sets and
 * landlock's mount list.  The capacity is implied by the count (4, then
 * doubling), so the pairs carry no third field.
 */
#ifndef HAS_STRING_ARRAY_H
#define HAS_STRING_ARRAY_H

#include <stddef.h>

/* Append a copy of s.  0, or -1 when out of memory (the array unchanged). */
int string_array_push(char ***items, size_t *count, const char *s);

/* Free every item and the array; *items NULL and *count 0 after. */
void string_array_free(char ***items, size_t *count);

#endif
