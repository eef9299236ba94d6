/*
 * text_buffer.c -- the growable text of text_buffer.h.
 */
#include "text_buffer.h"

#include <stdlib.h>
#include <string.h>

int text_buffer_append(struct text_buffer *b, const char *text)
{
    size_t len = strlen(text);
    if (b->len + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (b->len + len + 1 > cap)
            cap *= 2;
        char *grown = realloc(b->s, cap);
        if (!grown)
            return -1;
        b->s = grown;
        b->cap = cap;
    }
    memcpy(b->s + b->len, text, len + 1);
    b->len += len;
    return 0;
}

void text_buffer_truncate(struct text_buffer *b, size_t len)
{
    b->len = len;
    if (b->s)
        b->s[len] = '\0';
}
