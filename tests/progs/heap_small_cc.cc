// heap_small_cc.cc: small chunks from C++ operator new and the standard
// containers, every allocation and free noted for the oracle (heaplog.h,
// tests/heap_oracle.py).  The containers allocate through Logged<T, SITE>,
// which calls the global operator new and delete of libstdc++ and notes
// each call, so that each container is a site of its own (its allocate()
// names the site number).
//
// Sites:
//   11 new Node          40-byte objects from operator new, written, read
//   12 vector<int>       grown by push_back (each growth a new chunk,
//                        the old one read by the copy, then deleted)
//   13 map<int, long>    tree nodes, written, looked up
//   14 list<long>        nodes written, never read back
//   15 string            long strings, written, read in part

#include <list>
#include <map>
#include <new>
#include <string>
#include <vector>

#include "heaplog.h"

HEAPLOG_DEFINE;

template <class T, long SITE> struct Logged {
   typedef T value_type;
   Logged() {}
   template <class U> Logged(const Logged<U, SITE>&) {}
   template <class U> struct rebind { typedef Logged<U, SITE> other; };
   __attribute__((noinline)) T* allocate(std::size_t n)
   {
      heaplog_note(nullptr, n * sizeof(T), HEAPLOG_CALL, SITE);
      T* p = static_cast<T*>(::operator new(n * sizeof(T)));
      heaplog_note(p, n * sizeof(T), HEAPLOG_ALLOC, SITE);
      return p;
   }
   __attribute__((noinline)) void deallocate(T* p, std::size_t)
   {
      heaplog_note(p, 0, HEAPLOG_FREE, SITE);
      ::operator delete(p);
      heaplog_note(p, 0, HEAPLOG_BACK, SITE);
   }
};
template <class T, class U, long S>
bool operator==(const Logged<T, S>&, const Logged<U, S>&) { return true; }
template <class T, class U, long S>
bool operator!=(const Logged<T, S>&, const Logged<U, S>&) { return false; }

struct Node {
   Node* next;
   long  v[4];
};

__attribute__((noinline)) static Node* make_node(long v, Node* next)
{
   heaplog_note(nullptr, sizeof(Node), HEAPLOG_CALL, 11);
   Node* n = new Node;
   heaplog_note(n, sizeof *n, HEAPLOG_ALLOC, 11);
   n->next = next;
   for (int i = 0; i < 4; i++)
      n->v[i] = v * i;
   return n;
}

typedef std::basic_string<char, std::char_traits<char>, Logged<char, 15> >
   LoggedString;

int main()
{
   long sum = 0;
   Node* head = nullptr;
   for (int i = 0; i < 1000; i++)
      head = make_node(i, head);
   {
      std::vector<int, Logged<int, 12> > v;
      std::map<int, long, std::less<int>,
               Logged<std::pair<const int, long>, 13> > m;
      std::list<long, Logged<long, 14> > l;
      std::vector<LoggedString> strings;
      strings.reserve(300);
      for (int i = 0; i < 800; i++) {
         v.push_back(i);
         m[(i * 37) % 800] = i;
         l.push_back(i);
         if (i < 300)
            strings.push_back(LoggedString(20 + i % 60, 'x'));
      }
      for (int i = 0; i < 800; i += 3)
         sum += m[i] + v[i];
      for (const LoggedString& s : strings)
         sum += s[0];
   }
   for (Node* n = head; n;) {
      Node* next = n->next;
      sum += n->v[1];
      heaplog_note(n, 0, HEAPLOG_FREE, 11);
      delete n;
      heaplog_note(n, 0, HEAPLOG_BACK, 11);
      n = next;
   }
   heaplog_print();
   return sum == 42;
}
