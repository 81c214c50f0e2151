/*--------------------------------------------------------------------*/
/*--- ws: working-set misses per code address.        ws_misses.c ---*/
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

/* Owns the miss profile (--ws-miss-file): for each instruction that
   brought a page into the working set, how many instruction pages and
   how many data pages it brought in, written at exit as a callgrind-
   format profile that callgrind_annotate and KCachegrind read
   (docs/manual.md, "Miss profile").

   The core tells each miss (WS_EvEntered) from its slow path, at most
   once per page per window, so the cost per miss is a hash lookup (none
   when the same instruction misses again, as a loop walking a buffer
   does).
   Source locations are looked up once per instruction, when it first
   misses, and kept: the code may be unloaded (dlclose) before exit,
   taking its debug information with it.  Names are kept once each, in
   tables that also hold the numbers of the format's name compression.

   Each miss also walks the stack (WS_(stack_here)) and charges it to
   every call on the way, caller's call site to the callee's function:
   the calls= lines, whose costs are inclusive (the misses in the
   callee and below), so that KCachegrind shows callers, callees and
   inclusive costs, and callgrind_annotate --inclusive=yes ranks by
   them.  A calls= line's count is callgrind's: how often that call
   site called that function while measuring (ws_calls.c counts them);
   the profile has the calls through which misses were seen.  The
   stack shows no frame for code entered by a jump, so no call is
   counted where the function that missed was entered from the call
   site by a jump and not called (a tail call's target, the dynamic
   linker's resolver behind a PLT stub, code that one function's entry
   jumps into), or before measuring began: such a call's count is 1,
   the fewest calls through which a miss can be seen (callgrind_annotate
   would take the costs after a calls=0 line as the caller's own).  A function without a symbol is
   named by its entry, as callgrind names such code by its address: the
   target of the call before its caller's return address (for a call
   through a pointer, the nearest below it of the targets that call was
   seen to have, ws_calls.c), "0x<address in the object file>"; "???"
   when the caller is not on the stack.

   A forked child starts with an empty profile and writes its own file
   when the name expands to a new one (%p), as the output file does:
   each file then holds the misses of one process, as its ws.out holds
   that process's samples. */

#include "pub_tool_basics.h"
#include "pub_tool_execontext.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_vki.h"
#include "pub_tool_xarray.h"

#include "ws_analyses.h"

/*------------------------------------------------------------*/
/*--- Names and their compression numbers                  ---*/
/*------------------------------------------------------------*/

/* One table per name space of the format (objects, files, functions):
   each has its own compression numbers.  A function's number stands for
   the function in one object and file, as callgrind's own writer has
   it: KCachegrind ties a number to the object and file where it was
   first defined, so "???" or "memcpy" in two objects are two functions
   with two numbers (|scope| tells them apart; NULL in the other
   tables). */
typedef struct _Name {
   struct _Name* next;
   UWord         key;       /* hash of str and scope */
   HChar*        str;
   const void*   scope;     /* functions: their object's and file's */
   UInt          id;        /* compression number, from 1 */
   Bool          written;   /* "(id) str" is in the file already */
} Name;

typedef struct {
   VgHashTable* ht;
   UInt         count;
} Names;

static Names objs, files, fns;
static Names scopes;     /* (object, file) pairs: the functions' scopes */

static UWord hash_str(const HChar* s)
{
   UWord h = 5381;
   for (; *s; s++)
      h = h * 33 + (UChar)*s;
   return h;
}

/* Called only for names whose hashes are equal. */
static Word cmp_name(const void* a, const void* b)
{
   const Name* x = a;
   const Name* y = b;
   if (x->scope != y->scope)
      return x->scope < y->scope ? -1 : 1;
   return VG_(strcmp)(x->str, y->str);
}

static void names_init(Names* t, const HChar* cc)
{
   t->ht = VG_(HT_construct)(cc);
   t->count = 0;
}

/* The entry for |s| in |scope|, made if new.  |s| may be a string the
   debug information owns only until the next query, so it is copied. */
static Name* intern_in(Names* t, const HChar* s, const void* scope)
{
   Name probe, *n;
   probe.key = hash_str(s) ^ ((UWord)scope * 0x9e3779b97f4a7c15ULL);
   probe.str = (HChar*)s;
   probe.scope = scope;
   n = VG_(HT_gen_lookup)(t->ht, &probe, cmp_name);
   if (n == NULL) {
      n = VG_(malloc)("ws.misses.name", sizeof(Name));
      n->key = probe.key;
      n->scope = scope;
      n->str = VG_(strdup)("ws.misses.name.str", s);
      n->id = ++t->count;
      n->written = False;
      VG_(HT_add_node)(t->ht, n);
   }
   return n;
}

static Name* intern(Names* t, const HChar* s)
{
   return intern_in(t, s, NULL);
}

/* A source file as callgrind names it: with its directory, so that
   callgrind_annotate --auto=yes and KCachegrind find it from anywhere. */
static Name* intern_path(const HChar* dir, const HChar* file)
{
   if (dir[0] == '\0' || file[0] == '/')
      return intern(&files, file);
   {
      HChar path[VG_(strlen)(dir) + 1 + VG_(strlen)(file) + 1];
      VG_(sprintf)(path, "%s/%s", dir, file);
      return intern(&files, path);
   }
}

/*------------------------------------------------------------*/
/*--- Counting                                             ---*/
/*------------------------------------------------------------*/

/* Misses seen through one call: from a call site (the Site that holds
   it) to the function called, and how often it called it. */
typedef struct _Arc {
   struct _Arc*   next;
   struct _Site*  callee;   /* where the callee was when first seen */
   ULong          count[2];
   ULong          calls;
} Arc;

typedef struct _Site {
   struct _Site* next;
   UWord         ip;        /* key: the instruction's address */
   ULong         count[2];  /* pages brought in, by WS_Kind */
   Addr          rel;       /* ip in its object file (text bias taken
                               off), what KCachegrind disassembles */
   Name*         obj;
   Name*         fn;
   Name*         fn_file;   /* the file of the function's entry */
   Name*         file;      /* the file of this instruction's line;
                               another one for inlined code */
   UInt          line;      /* 0 when unknown */
   Arc*          calls;     /* a call site's calls, newest first */
} Site;

static VgHashTable* sites = NULL;   /* NULL: no profile is being made */
static Site*        last_site = NULL;

/* The offset |ip| has in its function, from the "name+N" form: the
   debug information offers the entry address of a function only
   that way. */
static PtrdiffT offset_in_fn(DiEpoch ep, Addr ip)
{
   const HChar* s;
   const HChar* plus;
   const HChar* p;
   PtrdiffT     off = 0;
   if (!VG_(get_fnname_w_offset)(ep, ip, &s))
      return 0;
   plus = VG_(strrchr)(s, '+');
   if (plus == NULL || plus[1] == '\0')
      return 0;
   for (p = plus + 1; *p; p++) {
      if (*p < '0' || *p > '9')
         return 0;             /* a '+' of the name itself */
      off = off * 10 + (*p - '0');
   }
   return off;
}

/* The debug information of object |obj| loaded nearest to |ip|: the
   one |ip| is in when it is code outside .text (.plt, .init), which
   VG_(find_DebugInfo) does not look at.  Its text bias turns |ip| into
   an address of the object file too. */
static const DebugInfo* object_near(const HChar* obj, Addr ip)
{
   const DebugInfo* di;
   const DebugInfo* best = NULL;
   UWord            best_dist = 0;
   for (di = VG_(next_DebugInfo)(NULL); di; di = VG_(next_DebugInfo)(di)) {
      Addr  text = VG_(DebugInfo_get_text_avma)(di);
      UWord dist = text > ip ? text - ip : ip - text;
      if (VG_STREQ(VG_(DebugInfo_get_filename)(di), obj)
          && (best == NULL || dist < best_dist)) {
         best = di;
         best_dist = dist;
      }
   }
   return best;
}

/* Where |ip| is, in the terms of the format.  What the debug
   information does not know is "???", as callgrind writes it, except
   that code without line information in a known object is in file
   "(<object>)" (its base name), like the "(object)" of ws's output
   file: callgrind_annotate tells functions apart by file and name
   only, and would add up the nameless code of every object (most of a
   stripped library) into one "???:???".  The base name, not the path:
   KCachegrind shows a file by what follows its last '/'. */
static void locate(Site* s, Addr ip, Addr entry)
{
   DiEpoch          ep = VG_(current_DiEpoch)();
   const DebugInfo* di = VG_(find_DebugInfo)(ep, ip);
   const HChar*     name;
   const HChar*     dir;
   UInt             line;
   PtrdiffT         off;

   s->obj = intern(&objs, VG_(get_objname)(ep, ip, &name) ? name : "???");
   if (di == NULL)
      di = object_near(s->obj->str, ip);
   s->rel = di ? ip - VG_(DebugInfo_get_text_bias)(di) : ip;
   if (VG_(get_filename_linenum)(ep, ip, &name, &dir, &line)) {
      s->file = intern_path(dir, name);
      s->line = line;
   } else if (VG_STREQ(s->obj->str, "???")) {
      s->file = intern(&files, "???");
      s->line = 0;
   } else {
      const HChar* base = VG_(basename)(s->obj->str);
      HChar in_obj[VG_(strlen)(base) + 3];
      VG_(sprintf)(in_obj, "(%s)", base);
      s->file = intern(&files, in_obj);
      s->line = 0;
   }
   s->fn_file = s->file;
   off = 0;
   if (VG_(get_fnname)(ep, ip, &name)) {
      HChar fn[VG_(strlen)(name) + 1];
      VG_(strcpy)(fn, name);          /* the next query may reuse it */
      off = offset_in_fn(ep, ip);
      if (off > 0
          && VG_(get_filename_linenum)(ep, ip - off, &name, &dir, &line))
         s->fn_file = intern_path(dir, name);
      s->fn = intern_in(&fns, fn, intern_in(&scopes, s->obj->str,
                                            s->fn_file));
   } else {
      /* callgrind's way: the address in the object file, as KCachegrind
         shows an address */
      HChar at[32] = "???";
      const DebugInfo* edi = entry ? VG_(find_DebugInfo)(ep, entry) : NULL;
      if (entry != 0 && entry <= ip
          && (edi == di || (edi == NULL && di != NULL
                            && object_near(s->obj->str, entry) == di))
          && !VG_(get_fnname)(ep, entry, &name))
         VG_(sprintf)(at, "0x%lx", di ? entry - VG_(DebugInfo_get_text_bias)(di)
                                      : entry);
      s->fn = intern_in(&fns, at, intern_in(&scopes, s->obj->str,
                                            s->fn_file));
   }
}

/* The site of |ip| (made when new; |entry|: its function's entry, if
   known). */
static Site* site_of(Addr ip, Addr entry)
{
   Site* s = VG_(HT_lookup)(sites, ip);
   if (s == NULL) {
      s = VG_(calloc)("ws.misses.site", 1, sizeof(Site));
      s->ip = ip;
      locate(s, ip, entry);
      VG_(HT_add_node)(sites, s);
   }
   return s;
}

/* The code addresses of the stack at a miss, innermost first (at most
   --num-callers of them), as ws names stacks (WS_(stack_here)): after
   the first, each is its return address less one, in the call
   instruction, as Valgrind's unwinder gives them. */
typedef struct {
   Addr* ips;
   UInt  n, max;
} Frames;

static void collect_ip(UInt i, DiEpoch ep, Addr ip, void* opaque)
{
   Frames* f = opaque;
   if (f->n < f->max)
      f->ips[f->n++] = ip;
}

static UInt stack_ips(ExeContext* ec, Addr* ips, UInt max)
{
   Frames f = { ips, 0, max };
   if (ec != NULL)
      VG_(apply_ExeContext)(collect_ip, &f, ec);
   return f.n;
}

/* The misses of each stack, for the output file's miss-stack lines
   (docs/output-format.md), keyed by the stack's ECU. */
typedef struct _StackMisses {
   struct _StackMisses* next;
   UWord                ecu;
   ExeContext*          ec;
   ULong                count[2];
} StackMisses;

static VgHashTable* stack_misses = NULL;

static void count_stack(ExeContext* ec, WS_Kind kind)
{
   UInt         ecu = VG_(get_ECU_from_ExeContext)(ec);
   StackMisses* m = VG_(HT_lookup)(stack_misses, ecu);
   if (m == NULL) {
      m = VG_(calloc)("ws.misses.stack", 1, sizeof *m);
      m->ecu = ecu;
      m->ec = ec;
      VG_(HT_add_node)(stack_misses, m);
   }
   m->count[kind]++;
}

/* Charge the miss to each call on the stack: the call site before each
   return address, to the function of the frame it called.  A call
   that recursion puts on the stack twice is charged once. */
static void charge_calls(const WS_Event* ev, ExeContext* ec, Site* inner)
{
   Addr  ips[VG_(clo_backtrace_size)];
   UInt  n = stack_ips(ec, ips, VG_(clo_backtrace_size)), i, j;
   Site* callee = inner;
   Arc*  seen[VG_(clo_backtrace_size) + 1];
   for (i = 1; i < n; i++) {
      Site* call = site_of(ips[i], i + 1 < n
                                   ? WS_(called_entry)(ips[i + 1], ips[i])
                                   : 0);
      Arc*  a;
      for (a = call->calls; a && a->callee->fn != callee->fn; a = a->next)
         ;
      if (a == NULL) {
         a = VG_(calloc)("ws.misses.arc", 1, sizeof(Arc));
         a->callee = callee;
         a->next = call->calls;
         call->calls = a;
      }
      for (j = 1; j < i && seen[j] != a; j++)
         ;
      seen[i] = a;
      if (j == i)
         a->count[ev->kind]++;
      callee = call;
   }
}

static void miss_at(const WS_Event* ev)
{
   Site*       s = last_site;
   ExeContext* ec;
   if (sites == NULL)
      return;
   ec = WS_(stack_here)(ev->ip);
   if (s == NULL || s->ip != ev->ip) {
      s = VG_(HT_lookup)(sites, ev->ip);
      if (s == NULL) {
         /* the entry of an unnamed function: what its caller called */
         Addr ips[2];
         s = site_of(ev->ip, stack_ips(ec, ips, 2) == 2
                             ? WS_(called_entry)(ips[1], ev->ip) : 0);
      }
      last_site = s;
   }
   s->count[ev->kind]++;
   if (ec != NULL)
      count_stack(ec, ev->kind);
   charge_calls(ev, ec, s);
}

/*------------------------------------------------------------*/
/*--- The file                                             ---*/
/*------------------------------------------------------------*/

static WS_File miss = WS_FILE("miss profile");
static HChar*  miss_template = NULL;

static void start_counting(void)
{
   sites = VG_(HT_construct)("ws.misses.sites");
   stack_misses = VG_(HT_construct)("ws.misses.stacks");
   last_site = NULL;
   WS_(calls_reset)();
}

static void free_site(void* p)
{
   Site* s = p;
   while (s->calls) {
      Arc* a = s->calls;
      s->calls = a->next;
      VG_(free)(a);
   }
   VG_(free)(s);
}

static void stop_counting(void)
{
   if (sites != NULL)
      VG_(HT_destruct)(sites, free_site);
   if (stack_misses != NULL)
      VG_(HT_destruct)(stack_misses, VG_(free));
   sites = NULL;
   stack_misses = NULL;
   last_site = NULL;
}

/* Opening the file now, not at exit, is what lets a name that cannot
   be written be refused before the program runs.  |out_name|: the name
   the output file will have; both writers would truncate and
   interleave one file. */
void WS_(misses_init)(const HChar* out_name)
{
   HChar* name;
   HChar  why[512];
   struct vg_stat a, b;
   if (WS_(clo).miss_file == NULL)
      return;
   miss_template = WS_(option_template)("--ws-miss-file",
                                        WS_(clo).miss_file);
   name = WS_(name_expand)("--ws-miss-file", miss_template);
   if (sr_isError(VG_(stat)(name, &a)))
      a.mode = 0;
   /* A terminal or /dev/null may take both (WS_(file_create) agrees). */
   if (!VKI_S_ISCHR(a.mode)
       && (VG_STREQ(name, out_name)
           || (a.mode != 0 && !sr_isError(VG_(stat)(out_name, &b))
               && a.dev == b.dev && a.ino == b.ino))) {
      VG_(fmsg)("--ws-miss-file: '%s' is also the %s output file "
                "(give another name)\n", WS_(clo).miss_file,
                WS_(clo).file_option);
      VG_(exit)(1);
   }
   if (!WS_(file_create)(&miss, name, why, sizeof why)) {
      VG_(fmsg)("--ws-miss-file: cannot create the miss profile '%s' (%s; "
                "a writable file name is accepted)\n", name, why);
      VG_(exit)(1);
   }
   VG_(free)(name);
   WS_(calls_init)();
   start_counting();
   WS_(listen)(WS_EvEntered, miss_at);
   names_init(&objs, "ws.misses.objs");
   names_init(&files, "ws.misses.files");
   names_init(&fns, "ws.misses.fns");
   names_init(&scopes, "ws.misses.scopes");
}

/* Most data misses first, then most instruction misses, then the
   stack made first: the same order in every run of a program. */
static Int by_misses(const void* a, const void* b)
{
   const StackMisses* x = *(const StackMisses* const*)a;
   const StackMisses* y = *(const StackMisses* const*)b;
   if (x->count[WS_Data] != y->count[WS_Data])
      return x->count[WS_Data] > y->count[WS_Data] ? -1 : 1;
   if (x->count[WS_Insn] != y->count[WS_Insn])
      return x->count[WS_Insn] > y->count[WS_Insn] ? -1 : 1;
   return x->ecu < y->ecu ? -1 : x->ecu > y->ecu;
}

void WS_(misses_trailer)(void)
{
   StackMisses** m;
   UInt          n = 0, i;
   if (stack_misses == NULL)
      return;
   m = (StackMisses**)VG_(HT_to_array)(stack_misses, &n);
   if (n > 0)
      VG_(ssort)(m, n, sizeof *m, by_misses);
   for (i = 0; i < n; i++) {
      UInt stack = WS_(out_stack)(m[i]->ec);
      WS_(out_printf)("miss-stack %u %u insn %llu data %llu", i + 1, stack,
                      m[i]->count[WS_Insn], m[i]->count[WS_Data]);
      WS_(out_end_line)();
   }
   if (m != NULL)
      VG_(free)(m);
}

const HChar* WS_(misses_name)(void)
{
   return miss.name;
}

void WS_(misses_abandon)(void)
{
   WS_(file_abandon)(&miss);
}

/* The parent writes its file; the child starts counting afresh, into
   a file of its own if the name gives it one. */
void WS_(misses_after_fork)(void)
{
   stop_counting();
   if (WS_(file_after_fork)(&miss, "--ws-miss-file", WS_(clo).miss_file,
                            miss_template))
      start_counting();
}

/* After a failed exec: as after a fork, in a file for this image. */
void WS_(misses_new_image)(void)
{
   HChar  why[512];
   HChar* name;
   stop_counting();
   if (miss.name == NULL)
      return;
   VG_(free)(miss.name);
   miss.name = NULL;
   name = WS_(name_expand)("--ws-miss-file", miss_template);
   if (WS_(file_create)(&miss, name, why, sizeof why))
      start_counting();
   else
      VG_(umsg)("ws: cannot create '%s' (%s); ws writes no miss profile for "
                "the rest of the run\n", name, why);
   VG_(free)(name);
}

/* "fl=(3) /src/a.c" the first time, "fl=(3)" after; names escaped as
   in every file ws writes (docs/output-format.md, "Escaping"). */
static void put_name(const HChar* spec, Name* n)
{
   if (n->written) {
      WS_(file_printf)(&miss, "%s=(%u)\n", spec, n->id);
   } else {
      WS_(file_printf)(&miss, "%s=(%u) ", spec, n->id);
      WS_(file_text)(&miss, n->str, WS_EscText);
      WS_(file_printf)(&miss, "\n");
      n->written = True;
   }
}

/* Sites grouped by object, function file and function, then in
   address order; names compare as strings so that the order does not
   depend on which instruction happened to miss first. */
static Int cmp_sites(const void* pa, const void* pb)
{
   const Site* a = *(const Site* const*)pa;
   const Site* b = *(const Site* const*)pb;
   Int c;
   if ((c = VG_(strcmp)(a->obj->str, b->obj->str)) != 0)
      return c;
   if ((c = VG_(strcmp)(a->fn_file->str, b->fn_file->str)) != 0)
      return c;
   if ((c = VG_(strcmp)(a->fn->str, b->fn->str)) != 0)
      return c;
   return a->rel < b->rel ? -1 : a->rel > b->rel ? 1 : 0;
}

static void write_header(const ULong total[2], const HChar* exec_path)
{
   WS_File* f = &miss;
   WS_(file_printf)(f, "# callgrind format\nversion: 1\ncreator: ws-%s\n"
                    "pid: %d\ncmd: ", WS_VERSION, VG_(getpid)());
   WS_(file_command)(f);
   WS_(file_printf)(f, "\ndesc: Page size: %u bytes\n", WS_(page_size)());
   WS_(file_printf)(f, "desc: Window: tau %llu, sample every %llu %s (at "
                    "exit)\n", WS_(tau)(), WS_(every)(),
                    WS_(clo).time_unit == WS_TimeMillis ? "ms"
                                                        : "instructions");
   if (exec_path != NULL) {
      WS_(file_printf)(f, "desc: Exec: the program exec'd ");
      WS_(file_text)(f, exec_path, WS_EscText);
      WS_(file_printf)(f, "; this profile ends there\n");
   }
   /* Readers rank by the first event unless told otherwise
      (callgrind_annotate's --sort and its threshold, KCachegrind's
      first column): data misses are the ones users come for. */
   WS_(file_printf)(f, "desc: Sort: by data misses, the first event; "
                    "callgrind_annotate --sort=WsInsnMiss ranks by "
                    "instruction misses\n");
   WS_(file_printf)(f, "positions: instr line\n"
                    "event: WsDataMiss : Data pages brought into the "
                    "working set\n"
                    "event: WsInsnMiss : Instruction pages brought into the "
                    "working set\n");
   /* callgrind_annotate takes "events:" as the end of the header. */
   WS_(file_printf)(f, "events: WsDataMiss WsInsnMiss\nsummary: %llu %llu\n"
                    "\n", total[WS_Data], total[WS_Insn]);
}

static void add_to_arc(Site* s, Addr target, ULong count)
{
   Site callee;
   Arc* a;
   VG_(memset)(&callee, 0, sizeof callee);
   locate(&callee, target, target);
   for (a = s->calls; a && a->callee->fn != callee.fn; a = a->next)
      ;
   if (a != NULL)
      a->calls += count;
}

/* The calls that a call site at |ip| made to |target|: the count of
   its arc to the function there, and, when that is a PLT stub, of its
   arc to the function the stub jumps to (the stack has no frame of the
   stub: a miss in the function is seen as the call site's call of
   it, and one in the stub's code as its call of the stub). */
static void add_calls(Addr ip, Addr target, ULong count)
{
   Site* s = VG_(HT_lookup)(sites, ip);
   Addr  real = WS_(plt_target)(target);
   if (s == NULL || s->calls == NULL)
      return;
   add_to_arc(s, target, count);
   if (real != target)
      add_to_arc(s, real, count);
}

/* A call site's calls: the callee's object, file and function, then
   "calls=<count> <callee's address> <line>" and the call site's
   position with the inclusive costs. */
static void write_calls(const Site* x)
{
   const Arc* a;
   for (a = x->calls; a; a = a->next) {
      put_name("cob", a->callee->obj);
      put_name("cfi", a->callee->fn_file);
      put_name("cfn", a->callee->fn);
      WS_(file_printf)(&miss, "calls=%llu 0x%lx %u\n0x%lx %u %llu %llu\n",
                       a->calls > 0 ? a->calls : 1, a->callee->rel, a->callee->line, x->rel,
                       x->line, a->count[WS_Data], a->count[WS_Insn]);
   }
}

const HChar* WS_(misses_write)(const HChar* exec_path)
{
   Bool   complete;
   UInt   n = 0, i;
   Site** s;
   ULong  total[2] = { 0, 0 };
   Site*  group = NULL;   /* first site of the current function */
   Name*  line_file = NULL;

   if (sites == NULL)
      return NULL;
   s = (Site**)VG_(HT_to_array)(sites, &n);
   for (i = 0; i < n; i++) {
      total[WS_Insn] += s[i]->count[WS_Insn];
      total[WS_Data] += s[i]->count[WS_Data];
   }
   if (n > 0)
      VG_(ssort)(s, n, sizeof(Site*), cmp_sites);
   WS_(calls_each)(add_calls);

   write_header(total, exec_path);
   for (i = 0; i < n; i++) {
      Site* x = s[i];
      if (group == NULL || x->obj != group->obj || x->fn_file != group->fn_file
          || x->fn != group->fn) {
         /* A function's cost lines leave the reader in its own file,
            so fl= is needed only when that changes. */
         if (group != NULL && line_file != group->fn_file)
            put_name("fe", group->fn_file);
         if (group == NULL || x->obj != group->obj)
            put_name("ob", x->obj);
         if (group == NULL || x->obj != group->obj
             || x->fn_file != group->fn_file)
            put_name("fl", x->fn_file);
         put_name("fn", x->fn);
         group = x;
         line_file = x->fn_file;
      }
      if (x->file != line_file) {
         put_name(x->file == x->fn_file ? "fe" : "fi", x->file);
         line_file = x->file;
      }
      if (x->count[WS_Data] + x->count[WS_Insn] > 0)
         WS_(file_printf)(&miss, "0x%lx %u %llu %llu\n", x->rel, x->line,
                          x->count[WS_Data], x->count[WS_Insn]);
      write_calls(x);
   }
   WS_(file_printf)(&miss, "\ntotals: %llu %llu\n", total[WS_Data],
                    total[WS_Insn]);
   if (s != NULL)
      VG_(free)(s);
   complete = WS_(file_close)(&miss);
   VG_(umsg)("Miss profile: %s%s\n", miss.name,
             complete ? "" : " (incomplete: writing it failed)");
   stop_counting();
   return complete ? miss.name : NULL;
}

/*--------------------------------------------------------------------*/
/*--- end                                               ws_misses.c ---*/
/*--------------------------------------------------------------------*/
