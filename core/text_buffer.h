/*
 * text_buffer.h -- a text that grows as it is appended to: the position
 * line an outside agent is sent (agents/ext.c) and what `rulelab engine`
 * has told its agent (experiments/cli/cmd_engine.c) are built in one.
 */
#ifndef RULELAB_TEXT_BUFFER_H
#define RULELAB_TEXT_BUFFER_H

#include <stddef.h>

/* Start it zeroed ({0}: the empty text, s NULL until the first append);
 * once s is set it holds len bytes and a NUL. The owner frees s. */
struct text_buffer {
    char *s;
    size_t len, cap;
};

/* Appends text, doubling the storage as needed. Returns 0, or -1 when
 * memory is short (the buffer is then as it was). */
int text_buffer_append(struct text_buffer *b, const char *text);

/* Cuts the text back to its first len bytes (len <= b->len). */
void text_buffer_truncate(struct text_buffer *b, size_t len);

#endif
