/* Lowers a SPIR-V file with the installed C interface.
 * usage: consumer-c <in.spv> <out.spv> */
#include <fatomic/fatomic.h>

#include <stdio.h>
#include <stdlib.h>

static void print_message(void *user_data, fatomic_message_level level,
                          const char *message) {
  (void)user_data;
  fprintf(stderr, "%s: %s\n", level == FATOMIC_MESSAGE_ERROR ? "error" : "note",
          message);
}

int main(int argc, char **argv) {
  static uint32_t words[1 << 16];
  size_t count, out_count;
  uint32_t *out;
  unsigned lowered;
  fatomic_result r;
  FILE *f;

  if (argc != 3) {
    fprintf(stderr, "usage: consumer-c <in.spv> <out.spv>\n");
    return 1;
  }
  f = fopen(argv[1], "rb");
  if (!f)
    return 1;
  count = fread(words, 4, sizeof words / 4, f);
  fclose(f);

  r = fatomic_lower(NULL, "nan=number", words, count, &out, &out_count,
                    &lowered, print_message, NULL);
  if (r != FATOMIC_SUCCESS) {
    fprintf(stderr, "fatomic_lower: %s\n", fatomic_result_string(r));
    return 1;
  }
  f = fopen(argv[2], "wb");
  if (!f || fwrite(out, 4, out_count, f) != out_count || fclose(f) != 0)
    return 1;
  fatomic_free(out);
  printf("consumer-c (fatomic %s): lowered %u float atomic min/max\n",
         fatomic_version(), lowered);
  return 0;
}
