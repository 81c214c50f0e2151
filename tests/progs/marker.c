/* marker: create a file, to show that the program ran.

   usage: marker PATH

   Creates PATH (empty).  The bad-option tests run ws on it and check that
   PATH does not exist afterwards: a refused option must stop valgrind
   before the program starts.  Exit status 0, or 2 if PATH cannot be
   created. */

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
   if (argc != 2) {
      fprintf(stderr, "usage: marker PATH\n");
      return 2;
   }
   int fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
   if (fd < 0) {
      perror(argv[1]);
      return 2;
   }
   close(fd);
   return 0;
}
