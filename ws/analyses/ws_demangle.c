/*--------------------------------------------------------------------*/
/*--- ws: the names of C++ data symbols.            ws_demangle.c ---*/
/*--------------------------------------------------------------------*/

/*
   This file is part of ws, a Valgrind tool that measures a program's
   instruction and data working sets over time.

   Copyright (C) 2026 the ws authors.

   This program is free software; you can redistribute it and/or
   modify it under the terms of the GNU General Public License as
   published by the Free Software Foundation; either version 2 of the
   License, or (at your option) any later version.

   The GNU General Public License is contained in the file COPYING.
*/

/* Owns the demangling of the names that name global owners: C++ data
   symbols, in the Itanium C++ ABI's mangling (section 5.1), written as
   c++filt writes them.  Valgrind demangles function names itself, but
   its demangler is not part of the tools' interface (pub_tool_*.h), so
   a data symbol's name is demangled here.

   What a data symbol can be: a variable in a namespace or a class, a
   static member of a class template, a static local of a function
   (whose whole signature is in the name: "grow(std::vector<int,
   std::allocator<int> >&, long)::table"), a guard variable, a vtable,
   a typeinfo, a VTT, a construction vtable, a TLS wrapper, with
   template arguments of types, of integer values, and of entities and
   their addresses.
   The grammar of those is here; a name that uses anything else (an
   expression in a template argument, an exception specification, a
   vendor extension) keeps its mangled form, as c++filt does with what
   it cannot read.

   The name is parsed into a small tree, then printed: a type's
   declarator (a pointer to function: "void (*)(int)", to an array:
   "int (*) [4]", to a member: "int A::*") is printed around the type
   it modifies, as the ABI's printed form has it. */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"

#include "ws_analyses.h"

/*------------------------------------------------------------*/
/*--- The tree                                             ---*/
/*------------------------------------------------------------*/

typedef enum {
   N_Name,       /* |text| */
   N_Qual,       /* l::r */
   N_Template,   /* l<r>, r a list */
   N_List,       /* l, then r (a list or NULL) */
   N_Ptr,        /* l* */
   N_Ref,        /* l& */
   N_RRef,       /* l&& */
   N_Cv,         /* l with |quals| */
   N_Func,       /* function type: l the return type (or NULL), r the
                    parameters (a list, NULL for none), |quals|, |refq| */
   N_Array,      /* l [text] */
   N_PtrMem,     /* r l::* (l the class, r the member's type) */
   N_Encoding,   /* l(r's parameters): a function; r an N_Func */
   N_Local,      /* l::r: an entity local to the function l */
   N_Special,    /* text l ("vtable for ...") */
   N_Special2,   /* text l "-in-" r (a construction vtable) */
   N_Literal,    /* a template argument's value, of type l */
   N_ArgPack,    /* template arguments r, printed among the others */
   N_TParam,     /* the |len|th template argument of the function (or
                    class) being printed: T_, T0_, ... */
   N_AbiTag,     /* l[abi:text] */
   N_Pack,       /* l... */
   N_Clone,      /* l [clone text] */
   N_AddressOf   /* &l, or &(l) */
} Kind;

#define Q_CONST     1
#define Q_VOLATILE  2
#define Q_RESTRICT  4

typedef struct Node {
   Kind         kind;
   struct Node* l;
   struct Node* r;
   const HChar* text;
   SizeT        len;
   UInt         quals;     /* N_Cv, N_Func */
   UInt         refq;      /* N_Func: 0, 1 (&) or 2 (&&) */
   Bool         neg;       /* N_Literal */
} Node;

#define MAX_NODES   2048
#define MAX_SUBSTS  256
#define MAX_TEXT    1024

typedef struct {
   const HChar* s;           /* what is left to read */
   Bool         failed;
   Node         nodes[MAX_NODES];
   UInt         n_nodes;
   Node*        subst[MAX_SUBSTS];
   UInt         n_subst;
   Node*        last_source; /* the last source name: a ctor's name */
   UInt         quals;       /* of the last nested name: a member
                                function's cv- and ref-qualifiers */
   UInt         refq;
   Bool         template_last; /* the last name ended in template
                                  arguments (a return type follows) */
   Bool         ctor_last;   /* it was a constructor, destructor or
                                conversion (no return type) */
   HChar        text[MAX_TEXT];   /* names made here ("~A", operators) */
   UInt         text_used;
} Parser;

static Node* node(Parser* p, Kind kind, Node* l, Node* r)
{
   Node* n;
   if (p->n_nodes == MAX_NODES) {
      p->failed = True;
      return NULL;
   }
   n = &p->nodes[p->n_nodes++];
   VG_(memset)(n, 0, sizeof *n);
   n->kind = kind;
   n->l = l;
   n->r = r;
   return n;
}

static Node* text_node(Parser* p, Kind kind, const HChar* text, SizeT len)
{
   Node* n = node(p, kind, NULL, NULL);
   if (n != NULL) {
      n->text = text;
      n->len = len;
   }
   return n;
}

static Node* name_node(Parser* p, const HChar* text)
{
   return text_node(p, N_Name, text, VG_(strlen)(text));
}

/* A name made here, printf-style, kept with the parser. */
static Node* made_name(Parser* p, const HChar* format, ...)
   PRINTF_CHECK(2, 3);
static Node* made_name(Parser* p, const HChar* format, ...)
{
   HChar*  text = p->text + p->text_used;
   UInt    room = MAX_TEXT - p->text_used;
   UInt    n;
   va_list vargs;
   va_start(vargs, format);
   n = VG_(vsnprintf)(text, room, format, vargs);
   va_end(vargs);
   if (n + 1 >= room) {
      p->failed = True;
      return NULL;
   }
   p->text_used += n + 1;
   return text_node(p, N_Name, text, n);
}

static Node* fail(Parser* p)
{
   p->failed = True;
   return NULL;
}

static void add_subst(Parser* p, Node* n)
{
   if (n == NULL || p->failed)
      return;
   if (p->n_subst == MAX_SUBSTS)
      fail(p);
   else
      p->subst[p->n_subst++] = n;
}

static Bool next_is(const Parser* p, HChar c)
{
   return *p->s == c;
}

static Bool take(Parser* p, HChar c)
{
   if (*p->s != c)
      return False;
   p->s++;
   return True;
}

static Bool is_digit(HChar c)
{
   return c >= '0' && c <= '9';
}

/* A decimal <number>, with 'n' for a minus; -1 if there is none. */
static Long number(Parser* p, Bool* neg)
{
   Long n = 0;
   if (neg != NULL)
      *neg = take(p, 'n');
   if (!is_digit(*p->s))
      return -1;
   while (is_digit(*p->s)) {        /* held below 2^50: a literal's */
      n = n * 10 + (*p->s++ - '0');  /* digits are kept as text */
      if (n > (1LL << 50))
         n = 1LL << 50;
   }
   return n;
}

/* A <seq-id> in base 36 and the '_' after it: 0 for "_", 1 for "0_",
   and so on; -1 if malformed. */
static Long seq_id(Parser* p)
{
   Long n = 0;
   if (take(p, '_'))
      return 0;
   while (is_digit(*p->s) || (*p->s >= 'A' && *p->s <= 'Z')) {
      HChar c = *p->s++;
      n = n * 36 + (is_digit(c) ? c - '0' : c - 'A' + 10);
      if (n > MAX_SUBSTS)
         n = MAX_SUBSTS;              /* no such substitution */
   }
   return take(p, '_') ? n + 1 : -1;
}

/*------------------------------------------------------------*/
/*--- Names                                                ---*/
/*------------------------------------------------------------*/

static Node* type(Parser* p);
static Node* name(Parser* p);
static Node* encoding(Parser* p);
static Node* template_args(Parser* p);

static const struct { const HChar* code; const HChar* name; } operators[] = {
   { "nw", "new" }, { "na", "new[]" }, { "dl", "delete" },
   { "da", "delete[]" }, { "ps", "+" }, { "ng", "-" }, { "ad", "&" },
   { "de", "*" }, { "co", "~" }, { "pl", "+" }, { "mi", "-" },
   { "ml", "*" }, { "dv", "/" }, { "rm", "%" }, { "an", "&" },
   { "or", "|" }, { "eo", "^" }, { "aS", "=" }, { "pL", "+=" },
   { "mI", "-=" }, { "mL", "*=" }, { "dV", "/=" }, { "rM", "%=" },
   { "aN", "&=" }, { "oR", "|=" }, { "eO", "^=" }, { "ls", "<<" },
   { "rs", ">>" }, { "lS", "<<=" }, { "rS", ">>=" }, { "eq", "==" },
   { "ne", "!=" }, { "lt", "<" }, { "gt", ">" }, { "le", "<=" },
   { "ge", ">=" }, { "ss", "<=>" }, { "nt", "!" }, { "aa", "&&" },
   { "oo", "||" }, { "pp", "++" }, { "mm", "--" }, { "cm", "," },
   { "pm", "->*" }, { "pt", "->" }, { "cl", "()" }, { "ix", "[]" },
};

/* <source-name>: a length and that many characters. */
static Node* source_name(Parser* p)
{
   Long  len = number(p, NULL);
   const HChar* id = p->s;
   Node* n;
   SizeT i;
   if (len <= 0)
      return fail(p);
   for (i = 0; i < (SizeT)len; i++)
      if (id[i] == '\0')
         return fail(p);
   p->s += len;
   if (len >= 10 && VG_(strncmp)(id, "_GLOBAL_", 8) == 0
       && (id[8] == '.' || id[8] == '_' || id[8] == '$') && id[9] == 'N')
      n = name_node(p, "(anonymous namespace)");
   else
      n = text_node(p, N_Name, id, len);
   p->last_source = n;
   return n;
}

/* {unnamed type#N}, a candidate, and {lambda(params)#N}. */
static Node* unnamed_type(Parser* p)
{
   Long  n;
   Node* params = NULL;
   Node** tail = &params;
   Node* lambda;
   if (take(p, 't')) {
      Node* unnamed;
      n = seq_id(p);
      if (n < 0)
         return fail(p);
      unnamed = made_name(p, "{unnamed type#%lld}", n + 1);
      add_subst(p, unnamed);
      return unnamed;
   }
   if (!take(p, 'l'))
      return fail(p);
   while (!p->failed && !next_is(p, 'E')) {
      Node* t = type(p);
      *tail = node(p, N_List, t, NULL);
      if (*tail == NULL)
         return NULL;
      tail = &(*tail)->r;
   }
   if (!take(p, 'E'))
      return fail(p);
   n = seq_id(p);
   if (n < 0)
      return fail(p);
   lambda = node(p, N_Func, NULL, params);
   if (lambda == NULL)
      return NULL;
   lambda->text = "lambda";
   lambda->len = n + 1;              /* its number */
   return lambda;
}

/* <unqualified-name> and its ABI tags. */
static Node* unqualified_name(Parser* p)
{
   Node* n = NULL;
   UInt  i;
   p->ctor_last = False;
   if (is_digit(*p->s)) {
      n = source_name(p);
   } else if (take(p, 'L')) {
      n = source_name(p);            /* internal linkage: a vendor's mark */
   } else if (next_is(p, 'U')) {
      p->s++;
      n = unnamed_type(p);
   } else if (next_is(p, 'C') && p->s[1] >= '1' && p->s[1] <= '5') {
      p->s += 2;
      if (p->last_source == NULL)
         return fail(p);
      n = p->last_source;
      p->ctor_last = True;
   } else if (next_is(p, 'D') && p->s[1] >= '0' && p->s[1] <= '5') {
      p->s += 2;
      if (p->last_source == NULL)
         return fail(p);
      n = made_name(p, "~%.*s", (Int)p->last_source->len,
                    p->last_source->text);
      p->ctor_last = True;
   } else if (next_is(p, 'c') && p->s[1] == 'v') {
      p->s += 2;
      n = node(p, N_Special, type(p), NULL);
      if (n != NULL)
         n->text = "operator ";
      p->ctor_last = True;
   } else {
      for (i = 0; i < sizeof operators / sizeof operators[0]; i++)
         if (VG_(strncmp)(p->s, operators[i].code, 2) == 0) {
            const HChar* op = operators[i].name;
            p->s += 2;
            /* "operator new", but "operator+" */
            n = made_name(p, "operator%s%s",
                          op[0] >= 'a' && op[0] <= 'z' ? " " : "", op);
            break;
         }
      if (n == NULL)
         return fail(p);
   }
   while (!p->failed && take(p, 'B')) {
      Node* class_name = p->last_source;
      Node* tag = source_name(p);
      p->last_source = class_name;
      n = node(p, N_AbiTag, n, NULL);
      if (n == NULL || tag == NULL)
         return fail(p);
      n->text = tag->text;
      n->len = tag->len;
   }
   return n;
}

/* A substitution, "S...", other than St.  The standard ones are
   written short, but for a constructor's or destructor's class in a
   nested name (|prefix|), and name what those are called. */
static Node* substitution(Parser* p, Bool prefix)
{
   static const struct {
      HChar code;
      const HChar* name;
      const HChar* full;
      const HChar* last;
   } std[] = {
      { 'a', "std::allocator", "std::allocator", "allocator" },
      { 'b', "std::basic_string", "std::basic_string", "basic_string" },
      { 's', "std::string", "std::basic_string<char, std::char_traits<char>,"
        " std::allocator<char> >", "basic_string" },
      { 'i', "std::istream", "std::basic_istream<char, "
        "std::char_traits<char> >", "basic_istream" },
      { 'o', "std::ostream", "std::basic_ostream<char, "
        "std::char_traits<char> >", "basic_ostream" },
      { 'd', "std::iostream", "std::basic_iostream<char, "
        "std::char_traits<char> >", "basic_iostream" },
   };
   Long n;
   UInt i;
   for (i = 0; i < sizeof std / sizeof std[0]; i++)
      if (p->s[0] == std[i].code) {
         Bool full = prefix && (p->s[1] == 'C' || p->s[1] == 'D');
         p->s++;
         p->last_source = name_node(p, std[i].last);
         return name_node(p, full ? std[i].full : std[i].name);
      }
   n = seq_id(p);
   if (n < 0 || n >= p->n_subst)
      return fail(p);
   return p->subst[n];
}

/* <template-param>: "T_", "T0_", ... : which argument is known when it
   is printed (a substitution of it made in one function may stand in
   another's parameters). */
static Node* template_param(Parser* p)
{
   Long  n = seq_id(p);
   Node* t;
   if (n < 0)
      return fail(p);
   t = node(p, N_TParam, NULL, NULL);
   if (t != NULL)
      t->len = n;
   return t;
}

/* <nested-name>: N [<CV-qualifiers>] [<ref-qualifier>] <prefix>
   <unqualified-name> E, after its N.  Each prefix is a substitution
   candidate, the whole name only where it is a type. */
static Node* nested_name(Parser* p)
{
   Node* n = NULL;
   UInt  quals = 0, refq = 0;
   for (;;) {
      if (take(p, 'r'))       quals |= Q_RESTRICT;
      else if (take(p, 'V'))  quals |= Q_VOLATILE;
      else if (take(p, 'K'))  quals |= Q_CONST;
      else break;
   }
   if (take(p, 'R'))
      refq = 1;
   else if (take(p, 'O'))
      refq = 2;
   p->template_last = False;
   while (!p->failed && !take(p, 'E')) {
      Node* part;
      Bool  from_subst = False;
      if (*p->s == '\0')
         return fail(p);
      if (take(p, 'S')) {
         /* std::, or what was named before: no new candidate */
         part = take(p, 't') ? name_node(p, "std") : substitution(p, True);
         from_subst = True;
         n = n == NULL ? part : node(p, N_Qual, n, part);
         p->template_last = False;
      } else if (next_is(p, 'I')) {
         if (n == NULL)
            return fail(p);
         n = node(p, N_Template, n, template_args(p));
         p->template_last = True;
      } else if (take(p, 'T')) {
         part = template_param(p);
         n = n == NULL ? part : node(p, N_Qual, n, part);
         p->template_last = False;
      } else if (take(p, 'M')) {
         continue;                    /* a lambda's initializer scope */
      } else {
         part = unqualified_name(p);
         n = n == NULL ? part : node(p, N_Qual, n, part);
         p->template_last = False;
      }
      if (!from_subst && !next_is(p, 'E'))
         add_subst(p, n);
   }
   p->quals = quals;
   p->refq = refq;
   return n != NULL ? n : fail(p);
}

/* <local-name>: Z <encoding> E <entity> [<discriminator>], after its
   Z. */
static Node* local_name(Parser* p)
{
   Node* function = encoding(p);
   Node* entity;
   if (p->failed || !take(p, 'E'))
      return fail(p);
   if (take(p, 's')) {
      entity = name_node(p, "string literal");
   } else {
      if (take(p, 'd')) {             /* a default argument's */
         Long n = take(p, '_') ? 0 : number(p, NULL) + 1;
         if (n <= 0 ? n < 0 : !take(p, '_'))
            return fail(p);
         function = node(p, N_Local, function,
                         made_name(p, "{default arg#%lld}", n + 1));
      }
      entity = name(p);
   }
   /* A discriminator tells same-named entities apart; it is not
      printed (a lambda's or unnamed type's number is its own). */
   if (entity != NULL && entity->kind != N_Func
       && !(entity->kind == N_Name && entity->text[0] == '{')
       && take(p, '_')) {
      Bool two = take(p, '_');
      Long n = number(p, NULL);
      if (n < 0 || (two && n >= 10 && !take(p, '_')))
         return fail(p);
   }
   return node(p, N_Local, function, entity);
}

/* <name>. */
static Node* name(Parser* p)
{
   Node* n;
   if (take(p, 'N'))
      return nested_name(p);
   if (take(p, 'Z'))
      return local_name(p);
   p->template_last = False;
   if (take(p, 'S')) {
      if (take(p, 't')) {
         n = node(p, N_Qual, name_node(p, "std"), unqualified_name(p));
      } else {
         n = substitution(p, False);
         if (!next_is(p, 'I'))
            return fail(p);        /* only a template may come from one */
         n = node(p, N_Template, n, template_args(p));
         p->template_last = True;
         return n;
      }
   } else {
      n = unqualified_name(p);
   }
   if (next_is(p, 'I')) {
      add_subst(p, n);
      n = node(p, N_Template, n, template_args(p));
      p->template_last = True;
   }
   return n;
}

/*------------------------------------------------------------*/
/*--- Types and template arguments                         ---*/
/*------------------------------------------------------------*/

static const struct { HChar code; const HChar* name; } builtins[] = {
   { 'v', "void" }, { 'w', "wchar_t" }, { 'b', "bool" }, { 'c', "char" },
   { 'a', "signed char" }, { 'h', "unsigned char" }, { 's', "short" },
   { 't', "unsigned short" }, { 'i', "int" }, { 'j', "unsigned int" },
   { 'l', "long" }, { 'm', "unsigned long" }, { 'x', "long long" },
   { 'y', "unsigned long long" }, { 'n', "__int128" },
   { 'o', "unsigned __int128" }, { 'f', "float" }, { 'd', "double" },
   { 'e', "long double" }, { 'g', "__float128" }, { 'z', "..." },
};

static const struct { HChar code; const HChar* name; } d_builtins[] = {
   { 'd', "decimal64" }, { 'e', "decimal128" }, { 'f', "decimal32" },
   { 'h', "half" }, { 'i', "char32_t" }, { 's', "char16_t" },
   { 'u', "char8_t" }, { 'a', "auto" }, { 'c', "decltype(auto)" },
   { 'n', "decltype(nullptr)" },
};

/* The parameter types up to an E (a function type's) or the end of the
   name (an encoding's), as a list. */
static Node* parameters(Parser* p)
{
   Node*  list = NULL;
   Node** tail = &list;
   while (!p->failed && *p->s != '\0' && !next_is(p, 'E')
          && !next_is(p, '.')) {
      *tail = node(p, N_List, type(p), NULL);
      if (*tail == NULL)
         return NULL;
      tail = &(*tail)->r;
   }
   return list;
}

/* <function-type>: F [Y] <bare-function-type> [<ref-qualifier>] E,
   after its F. */
static Node* function_type(Parser* p)
{
   Node* ret;
   Node* f;
   take(p, 'Y');                     /* extern "C": not printed */
   ret = type(p);
   f = node(p, N_Func, ret, parameters(p));
   if (f == NULL)
      return NULL;
   if (p->s[0] == 'R' && p->s[1] == 'E') {
      f->refq = 1;
      p->s++;
   } else if (p->s[0] == 'O' && p->s[1] == 'E') {
      f->refq = 2;
      p->s++;
   }
   if (!take(p, 'E'))
      return fail(p);
   return f;
}

/* <type>, a substitution candidate unless builtin or itself a
   substitution. */
static Node* type(Parser* p)
{
   Node* t = NULL;
   UInt  i, quals = 0;
   HChar c = *p->s;

   for (i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
      if (c == builtins[i].code) {
         p->s++;
         return name_node(p, builtins[i].name);
      }
   if (c == 'D') {
      for (i = 0; i < sizeof d_builtins / sizeof d_builtins[0]; i++)
         if (p->s[1] == d_builtins[i].code) {
            p->s += 2;
            return name_node(p, d_builtins[i].name);
         }
      if (p->s[1] == 'p') {             /* a pack expansion */
         p->s += 2;
         t = node(p, N_Pack, type(p), NULL);
         add_subst(p, t);
         return t;
      }
      return fail(p);
   }
   if (c == 'r' || c == 'V' || c == 'K') {
      while (True) {
         if (take(p, 'r'))       quals |= Q_RESTRICT;
         else if (take(p, 'V'))  quals |= Q_VOLATILE;
         else if (take(p, 'K'))  quals |= Q_CONST;
         else break;
      }
      if (take(p, 'F')) {
         /* a cv-qualified function type: a member function's, which
            alone is a candidate */
         t = function_type(p);
         if (t != NULL)
            t->quals = quals;
      } else {
         t = node(p, N_Cv, type(p), NULL);
         if (t != NULL)
            t->quals = quals;
      }
      add_subst(p, t);
      return t;
   }
   switch (c) {
   case 'P': p->s++; t = node(p, N_Ptr, type(p), NULL); break;
   case 'R': p->s++; t = node(p, N_Ref, type(p), NULL); break;
   case 'O': p->s++; t = node(p, N_RRef, type(p), NULL); break;
   case 'F': p->s++; t = function_type(p); break;
   case 'A': {
      const HChar* dim;
      p->s++;
      dim = p->s;
      while (is_digit(*p->s))
         p->s++;
      t = node(p, N_Array, NULL, NULL);
      if (t == NULL || !take(p, '_'))
         return fail(p);
      t->text = dim;
      t->len = p->s - 1 - dim;
      t->l = type(p);
      break;
   }
   case 'M': {
      Node* cls;
      p->s++;
      cls = type(p);
      t = node(p, N_PtrMem, cls, type(p));
      break;
   }
   case 'T':
      p->s++;
      t = template_param(p);
      if (next_is(p, 'I')) {           /* a template template parameter */
         add_subst(p, t);
         t = node(p, N_Template, t, template_args(p));
      }
      break;
   case 'u':                            /* a vendor's type */
      p->s++;
      t = source_name(p);
      break;
   case 'S':
      if (p->s[1] != 't') {
         p->s++;
         t = substitution(p, False);
         if (!next_is(p, 'I'))
            return t;
         t = node(p, N_Template, t, template_args(p));
         break;
      }
      /* fall through: a name in std */
   default:
      if (c == 'N' || c == 'Z' || c == 'S' || is_digit(c)) {
         t = name(p);
         break;
      }
      return fail(p);
   }
   add_subst(p, t);
   return t;
}

/* An entity named by its mangled name, in a template argument: L
   [_] Z <encoding> E, after its L. */
static Node* external_name(Parser* p)
{
   Node* n;
   take(p, '_');
   if (!take(p, 'Z'))
      return fail(p);
   n = encoding(p);
   if (!take(p, 'E'))
      return fail(p);
   return n;
}

static Node* template_args_to_e(Parser* p);

/* <template-arg>: a type, a literal, an entity, its address (the one
   expression read here), or a pack of them. */
static Node* template_arg(Parser* p)
{
   Node* t;
   Node* lit;
   const HChar* value;
   Bool neg;
   if (take(p, 'X')) {                     /* X ad L_Z <encoding> E E */
      if (p->s[0] != 'a' || p->s[1] != 'd' || p->s[2] != 'L')
         return fail(p);
      p->s += 3;
      t = node(p, N_AddressOf, external_name(p), NULL);
      if (t == NULL || !take(p, 'E'))
         return fail(p);
      return t;
   }
   if (take(p, 'J')) {
      Node* list = template_args_to_e(p);
      return p->failed ? NULL : node(p, N_ArgPack, NULL, list);
   }
   if (!take(p, 'L'))
      return type(p);
   if (next_is(p, '_') || next_is(p, 'Z'))
      return external_name(p);
   t = type(p);
   if (p->failed)
      return NULL;
   value = p->s;
   if (number(p, &neg) < 0 && !next_is(p, 'E'))
      return fail(p);
   if (neg)
      value++;
   lit = node(p, N_Literal, t, NULL);
   if (lit == NULL || !take(p, 'E'))
      return fail(p);
   lit->text = value;
   lit->len = p->s - 1 - value;
   lit->neg = neg;
   return lit;
}

/* <template-arg>* E: the list of them, up to and with its E. */
static Node* template_args_to_e(Parser* p)
{
   Node*  list = NULL;
   Node** tail = &list;
   while (!p->failed && !take(p, 'E')) {
      if (*p->s == '\0')
         return fail(p);
      *tail = node(p, N_List, template_arg(p), NULL);
      if (*tail == NULL)
         return NULL;
      tail = &(*tail)->r;
   }
   return list;
}

/* <template-args>: I <template-arg>+ E. */
static Node* template_args(Parser* p)
{
   Node*  list;
   /* a constructor's name, and whether the name is one, after them */
   Node*  class_name = p->last_source;
   Bool   ctor = p->ctor_last;
   if (!take(p, 'I'))
      return fail(p);
   list = template_args_to_e(p);
   if (p->failed)
      return NULL;
   p->last_source = class_name;
   p->ctor_last = ctor;
   return list;
}

/*------------------------------------------------------------*/
/*--- Encodings                                            ---*/
/*------------------------------------------------------------*/

/* <special-name>, after its T or G. */
static Node* special_name(Parser* p, HChar first)
{
   static const struct { const HChar* code; const HChar* text;
                         Bool is_type; } specials[] = {
      { "TV", "vtable for ", True }, { "TT", "VTT for ", True },
      { "TI", "typeinfo for ", True }, { "TS", "typeinfo name for ", True },
      { "TH", "TLS init function for ", False },
      { "TW", "TLS wrapper function for ", False },
      { "GV", "guard variable for ", False },
   };
   UInt i;
   Node* n;
   for (i = 0; i < sizeof specials / sizeof specials[0]; i++)
      if (specials[i].code[0] == first && specials[i].code[1] == *p->s) {
         p->s++;
         n = node(p, N_Special, specials[i].is_type ? type(p) : name(p),
                  NULL);
         if (n != NULL)
            n->text = specials[i].text;
         return n;
      }
   if (first == 'T' && take(p, 'C')) {
      Node* derived = type(p);
      if (number(p, NULL) < 0 || !take(p, '_'))
         return fail(p);
      n = node(p, N_Special2, type(p), derived);
      if (n != NULL)
         n->text = "construction vtable for ";
      return n;
   }
   return fail(p);
}

/* <encoding>: a name alone (data), or a function's name and its
   parameters (and its return type first, for a function template that
   is not a constructor, destructor or conversion). */
static Node* encoding(Parser* p)
{
   Node* n;
   Node* f;
   Bool  has_ret;
   if (next_is(p, 'T') || next_is(p, 'G')) {
      HChar first = *p->s++;
      return special_name(p, first);
   }
   p->quals = p->refq = 0;
   n = name(p);
   if (p->failed || *p->s == '\0' || next_is(p, 'E') || next_is(p, '.'))
      return n;
   has_ret = p->template_last && !p->ctor_last;
   f = node(p, N_Func, NULL, NULL);
   if (f == NULL)
      return NULL;
   f->quals = p->quals;
   f->refq = p->refq;
   if (has_ret)
      f->l = type(p);
   f->r = parameters(p);
   return node(p, N_Encoding, n, f);
}

/*------------------------------------------------------------*/
/*--- Printing                                             ---*/
/*------------------------------------------------------------*/

typedef struct {
   HChar* buf;
   SizeT  used, size;
   HChar  last;        /* what the next '>' is told follows: the last
                          character written, or a blank after a list's
                          empty pack (c++filt's ", " taken back) */
   const Node* pack;   /* the argument pack being expanded, and which */
   UInt   pack_item;   /* of its items the expansion is at */
   const Node* targs;  /* the template arguments T_ names */
   UInt   depth;       /* of print's recursion */
   Bool   failed;      /* a T_ named none, or it went too deep */
} Out;

/* A template argument may name a type whose name holds the argument
   again (a lambda's parameters): past this, the name is left mangled. */
#define MAX_DEPTH 256

static void put(Out* o, const HChar* s, SizeT n)
{
   if (n == 0)
      return;
   if (o->used + n + 1 > o->size) {
      o->size = (o->used + n + 1) * 2;
      o->buf = VG_(realloc)("ws.demangle.out", o->buf, o->size);
   }
   VG_(memcpy)(o->buf + o->used, s, n);
   o->used += n;
   o->buf[o->used] = '\0';
   o->last = s[n - 1];
}

static void puts_(Out* o, const HChar* s)
{
   put(o, s, VG_(strlen)(s));
}

static HChar last(const Out* o)
{
   return o->last;
}

static void print(Out* o, const Node* n);
static void print_type(Out* o, const Node* t);

static void print_quals(Out* o, UInt quals)
{
   if (quals & Q_RESTRICT) puts_(o, " restrict");
   if (quals & Q_VOLATILE) puts_(o, " volatile");
   if (quals & Q_CONST)    puts_(o, " const");
}

/* An argument pack's items; the one an expansion is at. */
static UInt pack_size(const Node* pack)
{
   UInt n = 0;
   const Node* l;
   for (l = pack->r; l != NULL; l = l->r)
      n++;
   return n;
}

static const Node* pack_item(const Node* pack, UInt i)
{
   const Node* l = pack->r;
   for (; l != NULL && i > 0; i--)
      l = l->r;
   return l ? l->l : NULL;
}

/* |t|, with a template parameter replaced by its argument, and the
   pack being expanded by the item the expansion is at. */
static const Node* resolved(Out* o, const Node* t)
{
   if (t != NULL && t->kind == N_TParam) {
      const Node* a = o->targs;
      UInt i;
      for (i = 0; a != NULL && i < t->len; i++)
         a = a->r;
      if (a == NULL) {
         o->failed = True;
         return NULL;
      }
      t = a->l;
   }
   return t != NULL && t->kind == N_ArgPack && t == o->pack
          ? pack_item(t, o->pack_item) : t;
}

/* The argument pack a pack expansion expands: the first one in it. */
static const Node* pack_in(Out* o, const Node* n)
{
   const Node* found;
   if (n != NULL && n->kind == N_TParam)
      n = resolved(o, n);
   if (n == NULL || n->kind == N_Pack)
      return NULL;
   if (n->kind == N_ArgPack)
      return n;
   found = pack_in(o, n->l);
   return found ? found : pack_in(o, n->r);
}

/* Items of a list, ", " between.  A pack's items are among them; an
   item that prints nothing (an empty pack) takes its ", " back, though
   not the blank it leaves for a following '>', as c++filt does. */
static void print_list(Out* o, const Node* list)
{
   const Node* item;
   if (list == NULL)
      return;
   item = resolved(o, list->l);
   if (item != NULL && item->kind == N_ArgPack)
      print_list(o, item->r);
   else
      print(o, item);
   if (list->r != NULL) {
      SizeT len;
      puts_(o, ", ");
      len = o->used;
      print_list(o, list->r);
      if (o->used == len) {
         o->used -= 2;
         o->buf[o->used] = '\0';
      }
   }
}

static void print_template_args(Out* o, const Node* args)
{
   if (last(o) == '<')               /* operator<< <T> */
      puts_(o, " ");
   puts_(o, "<");
   print_list(o, args);
   if (last(o) == '>')
      puts_(o, " ");
   puts_(o, ">");
}

/* A function's parameters: "()" for (void). */
static void print_params(Out* o, const Node* params)
{
   puts_(o, "(");
   if (!(params != NULL && params->r == NULL && params->l != NULL
         && params->l->kind == N_Name
         && VG_(strcmp)(params->l->text, "void") == 0))
      print_list(o, params);
   puts_(o, ")");
}

static void print_function_tail(Out* o, const Node* f)
{
   print_params(o, f->r);
   print_quals(o, f->quals);
   if (f->refq)
      puts_(o, f->refq == 1 ? " &" : " &&");
}

static Bool is_ref(const Node* t)
{
   return t != NULL && (t->kind == N_Ref || t->kind == N_RRef);
}

/* An Out that prints into a string of its own, in |o|'s context; and
   the string it made (to VG_(free)), |o| told of a failure. */
static Out aside(const Out* o)
{
   Out a = *o;
   a.buf = NULL;
   a.used = a.size = 0;
   a.last = '\0';
   return a;
}

static HChar* taken(Out* o, Out* a)
{
   o->failed |= a->failed;
   if (a->buf == NULL) {
      a->buf = VG_(malloc)("ws.demangle.aside", 1);
      a->buf[0] = '\0';
   }
   return a->buf;
}

/* |a|, then |b|, with a blank between if |b| opens a declarator's
   parenthesis or bracket after a word ("const (&) [4]"). */
static HChar* joined(const HChar* a, const HChar* b)
{
   SizeT na = VG_(strlen)(a), nb = VG_(strlen)(b);
   HChar c = na > 0 ? a[na - 1] : ' ';
   Bool  blank = ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
                  || is_digit(c) || c == '_')
                 && (b[0] == '(' || b[0] == '[');
   HChar* j = VG_(malloc)("ws.demangle.decl", na + nb + 2);
   VG_(strcpy)(j, a);
   if (blank)
      VG_(strcat)(j, " ");
   VG_(strcat)(j, b);
   return j;
}

static void print_decl(Out* o, const Node* t, const HChar* d);

/* Prints |t| declaring |d| (what a declaration would name, with the
   modifiers met outside it), so that a declarator goes around what it
   modifies: "char const* const", "void (*)(int)", "int (*) [4]",
   "Status (*(int))(char)", a function returning a pointer to one. */
static void print_decl_with(Out* o, const Node* t, HChar* d)
{
   print_decl(o, t, d);
   VG_(free)(d);
}

static void print_array(Out* o, const Node* a, const HChar* d, UInt quals)
{
   Out    q = aside(o);
   HChar* dims;
   HChar* wrapped;
   while (*d == ' ')
      d++;
   wrapped = VG_(malloc)("ws.demangle.decl", VG_(strlen)(d) + a->len + 8);
   dims = wrapped;
   if (*d != '\0') {
      VG_(strcpy)(wrapped, "(");
      VG_(strcat)(wrapped, d);
      VG_(strcat)(wrapped, ") ");
   } else {
      wrapped[0] = '\0';
   }
   dims = wrapped + VG_(strlen)(wrapped);
   VG_(strcpy)(dims, "[");
   VG_(memcpy)(dims + 1, a->text, a->len);
   VG_(strcpy)(dims + 1 + a->len, "]");
   /* the array's own qualifiers are its elements' */
   print_quals(&q, quals);
   print_decl_with(o, a->l, joined(taken(o, &q), wrapped));
   VG_(free)(q.buf);
   VG_(free)(wrapped);
}

static Bool is_modifier(const Node* t)
{
   return t != NULL && (t->kind == N_Ptr || t->kind == N_Ref
                        || t->kind == N_RRef || t->kind == N_Cv
                        || t->kind == N_PtrMem);
}

/* Whether the modifiers |t| starts with modify a function type or an
   array, which a declarator goes around. */
static Bool declarator_around(Out* o, const Node* t)
{
   t = resolved(o, t);
   while (is_modifier(t))
      t = resolved(o, t->kind == N_PtrMem ? t->r : t->l);
   return t != NULL && ((t->kind == N_Func && t->text == NULL)
                        || t->kind == N_Array);
}

/* A type with its modifiers written after it, innermost first: "char
   const* const", "int A::*". */
static void print_plain(Out* o, const Node* t)
{
   const Node* mods[64];
   UInt quals[64];
   Int  n = 0, i;
   t = resolved(o, t);
   while (is_modifier(t) && n < 64) {
      const Node* inner = resolved(o, t->kind == N_PtrMem ? t->r : t->l);
      /* a reference to a reference is one: & unless both are && */
      if (is_ref(t) && is_ref(inner)) {
         if (t->kind == N_Ref && inner->kind == N_RRef) {
            mods[n] = t;
            quals[n++] = 0;
            t = resolved(o, inner->l);
         } else {
            t = inner;
         }
         continue;
      }
      /* a qualifier a template argument has already is said once */
      if (t->kind == N_Cv && inner != NULL && inner->kind == N_Cv
          && (t->quals & ~inner->quals) == 0) {
         t = inner;
         continue;
      }
      mods[n] = t;
      quals[n++] = t->quals;
      t = inner;
   }
   print(o, t);
   for (i = n - 1; i >= 0; i--)
      switch (mods[i]->kind) {
      case N_Ptr:  puts_(o, "*"); break;
      case N_Ref:  puts_(o, "&"); break;
      case N_RRef: puts_(o, "&&"); break;
      case N_Cv:   print_quals(o, quals[i]); break;
      default:                             /* N_PtrMem */
         puts_(o, " ");
         print_plain(o, mods[i]->l);
         puts_(o, "::*");
         break;
      }
}

static void print_decl(Out* o, const Node* t, const HChar* d)
{
   const Node* inner;
   Out a;
   t = resolved(o, t);
   if (t == NULL || o->failed)
      return;
   if (!declarator_around(o, t)) {
      print_plain(o, t);
      if (*d == '(' || *d == '[')
         puts_(o, " ");
      puts_(o, d);
      return;
   }
   switch (t->kind) {
   case N_Ptr:
      print_decl_with(o, t->l, joined("*", d));
      return;
   case N_Ref:
   case N_RRef: {
      /* a reference to a reference is one: & unless both are && */
      Bool lvalue = t->kind == N_Ref;
      inner = resolved(o, t->l);
      while (is_ref(inner)) {
         lvalue |= inner->kind == N_Ref;
         inner = resolved(o, inner->l);
      }
      print_decl_with(o, inner, joined(lvalue ? "&" : "&&", d));
      return;
   }
   case N_Cv:
      inner = resolved(o, t->l);
      if (inner->kind == N_Array) {
         print_array(o, inner, d, t->quals);
         return;
      }
      a = aside(o);
      print_quals(&a, t->quals);
      print_decl_with(o, inner, joined(taken(o, &a), d));
      VG_(free)(a.buf);
      return;
   case N_PtrMem:
      a = aside(o);
      puts_(&a, " ");
      print_plain(&a, t->l);
      puts_(&a, "::*");
      print_decl_with(o, t->r, joined(taken(o, &a), d));
      VG_(free)(a.buf);
      return;
   case N_Array:
      print_array(o, t, d, 0);
      return;
   default:                             /* a function type */
      a = aside(o);
      while (*d == ' ')
         d++;
      if (*d != '\0') {
         puts_(&a, "(");
         puts_(&a, d);
         puts_(&a, ")");
      }
      print_function_tail(&a, t);
      print_decl(o, t->l, taken(o, &a));
      VG_(free)(a.buf);
      return;
   }
}

static void print_type(Out* o, const Node* t)
{
   print_decl(o, t, "");
}

static void print_literal(Out* o, const Node* n)
{
   static const struct { const HChar* type; const HChar* suffix; } ints[] = {
      { "int", "" }, { "unsigned int", "u" }, { "long", "l" },
      { "unsigned long", "ul" }, { "long long", "ll" },
      { "unsigned long long", "ull" },
   };
   UInt i;
   const Node* t = n->l;
   if (t->kind == N_Name) {
      if (VG_(strcmp)(t->text, "bool") == 0 && n->len == 1 && !n->neg
          && (n->text[0] == '0' || n->text[0] == '1')) {
         puts_(o, n->text[0] == '1' ? "true" : "false");
         return;
      }
      for (i = 0; i < sizeof ints / sizeof ints[0]; i++)
         if (VG_(strcmp)(t->text, ints[i].type) == 0) {
            if (n->neg)
               puts_(o, "-");
            put(o, n->text, n->len);
            puts_(o, ints[i].suffix);
            return;
         }
   }
   puts_(o, "(");
   print_type(o, t);
   puts_(o, ")");
   if (n->neg)
      puts_(o, "-");
   put(o, n->text, n->len);
}

/* The template arguments of a function's (or class's) name: those of
   its last component. */
static const Node* name_template_args(const Node* n)
{
   while (n != NULL && (n->kind == N_Qual || n->kind == N_AbiTag))
      n = n->kind == N_Qual ? n->r : n->l;
   return n != NULL && n->kind == N_Template ? n->r : NULL;
}

/* A function: its return type if it is a template's (but where a local
   entity names it), its name and parameters, in which T_ names its
   template's arguments. */
static void print_encoding(Out* o, const Node* n, Bool with_return)
{
   const Node* outer = o->targs;
   const Node* targs = name_template_args(n->l);
   if (targs != NULL)
      o->targs = targs;
   if (with_return && n->r->l != NULL) {
      print_type(o, n->r->l);
      puts_(o, " ");
   }
   print(o, n->l);
   print_function_tail(o, n->r);
   o->targs = outer;
}

static void print_node(Out* o, const Node* n);

static void print(Out* o, const Node* n)
{
   if (n == NULL || o->failed)
      return;
   if (++o->depth > MAX_DEPTH)
      o->failed = True;
   else
      print_node(o, n);
   o->depth--;
}

static void print_node(Out* o, const Node* n)
{
   HChar num[32];
   switch (n->kind) {
   case N_Name:
      put(o, n->text, n->len);
      break;
   case N_Qual:
      print(o, n->l);
      puts_(o, "::");
      print(o, n->r);
      break;
   case N_Local:
      /* the function a local entity is in has no return type here */
      if (n->l->kind == N_Encoding)
         print_encoding(o, n->l, False);
      else
         print(o, n->l);
      puts_(o, "::");
      print(o, n->r);
      break;
   case N_Template:
      print(o, n->l);
      print_template_args(o, n->r);
      break;
   case N_Func:
      if (n->text != NULL) {             /* a lambda */
         puts_(o, "{lambda");
         print_params(o, n->r);
         VG_(sprintf)(num, "#%lu}", (UWord)n->len);
         puts_(o, num);
      } else {
         print_type(o, n);
      }
      break;
   case N_Ptr: case N_Ref: case N_RRef: case N_Cv: case N_PtrMem:
   case N_Array:
      print_type(o, n);
      break;
   case N_Encoding:
      print_encoding(o, n, True);
      break;
   case N_Special:
      puts_(o, n->text);
      print(o, n->l);
      break;
   case N_Special2:
      puts_(o, n->text);
      print(o, n->l);
      puts_(o, "-in-");
      print(o, n->r);
      break;
   case N_Literal:
      print_literal(o, n);
      break;
   case N_AbiTag:
      print(o, n->l);
      puts_(o, "[abi:");
      put(o, n->text, n->len);
      puts_(o, "]");
      break;
   case N_Pack: {
      /* The expansion, once per item of the pack it names ("T&&..."
         with T a pack of int and long: "int&&, long&&"). */
      const Node* pack = pack_in(o, n->l);
      const Node* outer = o->pack;
      UInt i, items;
      if (pack == NULL) {
         print(o, n->l);
         puts_(o, "...");
         break;
      }
      items = pack_size(pack);
      for (i = 0; i < items; i++) {
         if (i > 0)
            puts_(o, ", ");
         o->pack = pack;
         o->pack_item = i;
         print(o, n->l);
      }
      o->pack = outer;
      break;
   }
   case N_ArgPack:
   case N_TParam: {
      const Node* item = resolved(o, n);
      if (item != NULL && item->kind == N_ArgPack)
         print_list(o, item->r);
      else if (item != n)
         print(o, item);
      break;
   }
   case N_AddressOf: {
      /* A member function's address is its name alone, unless it is
         qualified ("&(A::f() const)"). */
      const Node* e = n->l;
      if (e->kind == N_Encoding && e->l->kind == N_Qual
          && e->r->quals == 0 && e->r->refq == 0)
         e = e->l;
      if (e->kind == N_Name || e->kind == N_Qual) {
         puts_(o, "&");
         print(o, e);
      } else {
         puts_(o, "&(");
         print(o, e);
         puts_(o, ")");
      }
      break;
   }
   case N_Clone:
      print(o, n->l);
      puts_(o, " [clone ");
      put(o, n->text, n->len);
      puts_(o, "]");
      break;
   case N_List:
      break;
   }
}

/*------------------------------------------------------------*/
/*--- The whole name                                       ---*/
/*------------------------------------------------------------*/

/* GCC's clones of a symbol (".lto_priv.0", ".constprop.1") are
   printed after it, as "[clone .lto_priv.0]". */
static Node* clone_suffixes(Parser* p, Node* n)
{
   while (!p->failed && p->s[0] == '.'
          && ((p->s[1] >= 'a' && p->s[1] <= 'z') || p->s[1] == '_'
              || is_digit(p->s[1]))) {
      const HChar* start = p->s;
      p->s++;
      while ((*p->s >= 'a' && *p->s <= 'z') || *p->s == '_')
         p->s++;
      while (p->s[0] == '.' && is_digit(p->s[1])) {
         p->s++;
         while (is_digit(*p->s))
            p->s++;
      }
      n = node(p, N_Clone, n, NULL);
      if (n == NULL)
         return NULL;
      n->text = start;
      n->len = p->s - start;
   }
   return n;
}

HChar* WS_(demangle)(const HChar* mangled)
{
   Parser* p;
   Node*   n;
   Out     o = { NULL, 0, 0, '\0', NULL, 0, NULL, 0, False };
   if (mangled[0] != '_' || mangled[1] != 'Z')
      return NULL;
   p = VG_(calloc)("ws.demangle.parser", 1, sizeof *p);
   p->s = mangled + 2;
   n = encoding(p);
   n = clone_suffixes(p, n);
   if (!p->failed && n != NULL && *p->s == '\0')
      print(&o, n);
   VG_(free)(p);
   if (o.failed && o.buf != NULL) {
      VG_(free)(o.buf);
      o.buf = NULL;
   }
   return o.buf;
}

/*--------------------------------------------------------------------*/
/*--- end                                             ws_demangle.c ---*/
/*--------------------------------------------------------------------*/
