// f2xaif_plugin.cpp: a Flang 19 front-end plugin that writes, for every
// program unit of a Fortran file, what xaiform's Fortran front end needs
// (docs/fortran-frontend.md has the format): the unit's symbols with type,
// kind, shape, intent, dummy position and module of origin, from Flang's
// semantics; its statements and expressions from the parse tree (not
// Flang's folded typed expressions), each statement with line and column.
// What the format has no record for is written as an "x WHAT" token, which
// the C side refuses where it matters. Run as
//   flang-new-19 -fc1 -load f2xaif_plugin.so -plugin f2xaif FILE.f
#include "flang/Evaluate/tools.h"
#include "flang/Frontend/FrontendActions.h"
#include "flang/Frontend/FrontendPluginRegistry.h"
#include "flang/Parser/parse-tree.h"
#include "flang/Parser/parsing.h"
#include "flang/Parser/provenance.h"
#include "flang/Semantics/expression.h"
#include "flang/Semantics/scope.h"
#include "flang/Semantics/symbol.h"
#include "flang/Semantics/tools.h"
#include "flang/Semantics/type.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>

using namespace Fortran;

namespace {

class Writer {
public:
  Writer(llvm::raw_ostream &os, const parser::AllCookedSources &cooked)
      : os_{os}, cooked_{cooked} {}

  void Program(const parser::Program &p) {
    for (const auto &u : p.v)
      std::visit([&](const auto &x) { Unit(x.value()); }, u.u);
  }

private:
  llvm::raw_ostream &os_;
  const parser::AllCookedSources &cooked_;

  void Pos(parser::CharBlock src) {
    auto r{cooked_.GetSourcePositionRange(src)};
    if (r)
      os_ << ' ' << r->first.line << ' ' << r->first.column;
    else
      os_ << " 0 0";
  }
  void Word(const std::string &w) {
    os_ << ' ';
    for (char ch : w)
      os_ << (ch == ' ' || ch == '\n' || ch == '\t' ? '_' : ch);
  }
  void Unsupported(const char *what) { os_ << " x " << what; }

  // ------------------------------------------------------------ units
  template <typename A> void Unit(const A &x) {
    auto src{parser::FindSourceLocation(x)};
    os_ << "unit other -";
    Pos(src);
    os_ << "\nend\n";
  }
  void Unit(const parser::SubroutineSubprogram &s) {
    const auto &stmt{std::get<parser::Statement<parser::SubroutineStmt>>(s.t)};
    const auto &name{std::get<parser::Name>(stmt.statement.t)};
    Body("sub", name, stmt.source, std::get<parser::ExecutionPart>(s.t),
        std::get<std::optional<parser::InternalSubprogramPart>>(s.t)
            .has_value());
  }
  void Unit(const parser::FunctionSubprogram &s) {
    const auto &stmt{std::get<parser::Statement<parser::FunctionStmt>>(s.t)};
    const auto &name{std::get<parser::Name>(stmt.statement.t)};
    Body("fun", name, stmt.source, std::get<parser::ExecutionPart>(s.t),
        std::get<std::optional<parser::InternalSubprogramPart>>(s.t)
            .has_value());
  }
  void Unit(const parser::Module &m) {
    const auto &stmt{std::get<parser::Statement<parser::ModuleStmt>>(m.t)};
    const parser::Name &name{stmt.statement.v};
    os_ << "unit mod " << name.ToString();
    Pos(stmt.source);
    os_ << '\n';
    if (name.symbol && name.symbol->scope())
      Symbols(*name.symbol->scope(), nullptr);
    os_ << "end\n";
    if (const auto &part{
            std::get<std::optional<parser::ModuleSubprogramPart>>(m.t)})
      for (const auto &sub :
          std::get<std::list<parser::ModuleSubprogram>>(part->t))
        std::visit([&](const auto &x) { Unit(x.value()); }, sub.u);
  }

  void Body(const char *kind, const parser::Name &name, parser::CharBlock src,
      const parser::ExecutionPart &exec, bool internal) {
    os_ << "unit " << kind << ' ' << name.ToString();
    Pos(src);
    os_ << '\n';
    const semantics::Symbol *sym{name.symbol};
    if (sym && sym->scope()) {
      const auto *sd{sym->detailsIf<semantics::SubprogramDetails>()};
      Symbols(*sym->scope(), sd);
    }
    if (internal) {
      os_ << "x";
      Pos(src);
      os_ << " internal-subprograms\n";
    }
    Block(exec.v);
    os_ << "end\n";
  }

  // ---------------------------------------------------------- symbols
  void Symbols(
      const semantics::Scope &scope, const semantics::SubprogramDetails *sd) {
    std::map<const semantics::Symbol *, int> dummy;
    if (sd) {
      int n{0};
      for (const semantics::Symbol *d : sd->dummyArgs())
        dummy[d] = ++n;
      if (sd->isFunction())
        dummy[&sd->result()] = -1;
    }
    for (const auto &[nm, ref] : scope) {
      const semantics::Symbol &local{*ref};
      auto it{dummy.find(&local)};
      Symbol(local, it == dummy.end() ? 0 : it->second);
    }
  }

  void Symbol(const semantics::Symbol &local, int dummy) {
    const semantics::Symbol &s{local.GetUltimate()};
    const auto *obj{s.detailsIf<semantics::ObjectEntityDetails>()};
    if (!obj)
      return;
    os_ << "s " << local.name().ToString();
    const semantics::DeclTypeSpec *t{s.GetType()};
    const semantics::IntrinsicTypeSpec *it{t ? t->AsIntrinsic() : nullptr};
    if (!it) {
      os_ << (t ? " derived 0" : " none 0");
    } else {
      switch (it->category()) {
      case common::TypeCategory::Integer:
        os_ << " integer";
        break;
      case common::TypeCategory::Real:
        os_ << " real";
        break;
      case common::TypeCategory::Logical:
        os_ << " logical";
        break;
      case common::TypeCategory::Character:
        os_ << " character";
        break;
      default:
        os_ << " other";
        break;
      }
      os_ << ' ' << evaluate::ToInt64(it->kind()).value_or(0);
    }
    os_ << ' ' << obj->shape().size();
    for (const auto &ss : obj->shape()) {
      for (const semantics::Bound *b : {&ss.lbound(), &ss.ubound()}) {
        std::optional<std::int64_t> v;
        if (b->isExplicit() && b->GetExplicit())
          v = evaluate::ToInt64(*b->GetExplicit());
        if (v)
          os_ << ' ' << *v;
        else
          os_ << " ?";
      }
    }
    const char *intent{"-"};
    if (s.attrs().test(semantics::Attr::INTENT_IN))
      intent = "in";
    else if (s.attrs().test(semantics::Attr::INTENT_OUT))
      intent = "out";
    else if (s.attrs().test(semantics::Attr::INTENT_INOUT))
      intent = "inout";
    os_ << ' ' << intent << ' ' << dummy;
    // where it lives: a module (its name there), a COMMON block, or here
    const semantics::Scope &owner{s.owner()};
    if (const semantics::Symbol *cb{semantics::FindCommonBlockContaining(s)})
      os_ << " common:" << cb->name().ToString();
    else if (owner.kind() == semantics::Scope::Kind::Module && owner.GetName())
      os_ << " module:" << owner.GetName()->ToString() << ':'
          << s.name().ToString();
    else
      os_ << " -";
    if (s.attrs().test(semantics::Attr::PARAMETER) && obj->init())
      Word(obj->init()->AsFortran());
    else
      os_ << " -";
    std::string attrs;
    if (s.attrs().test(semantics::Attr::ALLOCATABLE))
      attrs += "allocatable,";
    if (s.attrs().test(semantics::Attr::POINTER))
      attrs += "pointer,";
    if (s.attrs().test(semantics::Attr::OPTIONAL))
      attrs += "optional,";
    if (s.attrs().test(semantics::Attr::SAVE))
      attrs += "save,";
    if (s.test(semantics::Symbol::Flag::InDataStmt) || obj->init())
      attrs += "init,";
    if (semantics::FindEquivalenceSet(s))
      attrs += "equivalence,";
    os_ << ' ' << (attrs.empty() ? "-" : attrs);
    os_ << '\n';
  }

  // ------------------------------------------------------- statements
  void Block(const std::list<parser::ExecutionPartConstruct> &b) {
    for (const auto &epc : b) {
      if (const auto *ec{std::get_if<parser::ExecutableConstruct>(&epc.u)}) {
        Exec(*ec);
      } else {
        os_ << "x";
        Pos(parser::FindSourceLocation(epc));
        os_ << " format-entry-or-data-statement\n";
      }
    }
  }

  void Exec(const parser::ExecutableConstruct &ec) {
    std::visit(
        common::visitors{
            [&](const parser::Statement<parser::ActionStmt> &s) {
              if (s.label) {
                os_ << "lbl";
                Pos(s.source);
                os_ << ' ' << *s.label << '\n';
              }
              Action(s.statement, s.source);
            },
            [&](const common::Indirection<parser::DoConstruct> &d) {
              Do(d.value());
            },
            [&](const common::Indirection<parser::IfConstruct> &i) {
              If(i.value());
            },
            [&](const common::Indirection<parser::CaseConstruct> &c) {
              Case(c.value());
            },
            [&](const auto &x) {
              os_ << "x";
              Pos(parser::FindSourceLocation(x));
              os_ << " construct\n";
            },
        },
        ec.u);
  }

  void Action(const parser::ActionStmt &a, parser::CharBlock src) {
    std::visit(
        common::visitors{
            [&](const common::Indirection<parser::AssignmentStmt> &x) {
              os_ << "a";
              Pos(src);
              Variable(std::get<parser::Variable>(x.value().t));
              E(std::get<parser::Expr>(x.value().t));
              os_ << '\n';
            },
            [&](const common::Indirection<parser::CallStmt> &x) {
              const parser::CallStmt &c{x.value()};
              os_ << "c";
              Pos(src);
              const auto &pd{std::get<parser::ProcedureDesignator>(c.call.t)};
              const semantics::Symbol *sym{nullptr};
              if (c.typedCall)
                sym = c.typedCall->proc().GetSymbol();
              if (!sym)
                if (const auto *n{std::get_if<parser::Name>(&pd.u)})
                  sym = n->symbol;
              os_ << ' '
                  << (sym ? sym->GetUltimate().name().ToString()
                          : std::string{"?"});
              Args(std::get<std::list<parser::ActualArgSpec>>(c.call.t));
              os_ << '\n';
            },
            [&](const common::Indirection<parser::IfStmt> &x) {
              os_ << "if";
              Pos(src);
              E(std::get<parser::ScalarLogicalExpr>(x.value().t)
                      .thing.thing.value());
              os_ << '\n';
              const auto &u{std::get<parser::UnlabeledStatement<parser::ActionStmt>>(
                  x.value().t)};
              Action(u.statement, u.source);
              os_ << "endif\n";
            },
            [&](const parser::ContinueStmt &) {},
            [&](const common::Indirection<parser::ReturnStmt> &) {
              Simple("ret", src);
            },
            [&](const common::Indirection<parser::ExitStmt> &) {
              Simple("exit", src);
            },
            [&](const common::Indirection<parser::CycleStmt> &) {
              Simple("cycle", src);
            },
            [&](const common::Indirection<parser::StopStmt> &) {
              Simple("stop", src);
            },
            [&](const common::Indirection<parser::GotoStmt> &x) {
              os_ << "goto";
              Pos(src);
              os_ << ' ' << x.value().v << '\n';
            },
            [&](const common::Indirection<parser::PrintStmt> &) {
              Refused("i/o", src);
            },
            [&](const common::Indirection<parser::WriteStmt> &) {
              Refused("i/o", src);
            },
            [&](const common::Indirection<parser::ReadStmt> &) {
              Refused("i/o", src);
            },
            [&](const common::Indirection<parser::AllocateStmt> &x) {
              Allocate(x.value(), src);
            },
            [&](const common::Indirection<parser::DeallocateStmt> &x) {
              Deallocate(x.value(), src);
            },
            [&](const auto &) { Refused("statement", src); },
        },
        a.u);
  }

  void Simple(const char *what, parser::CharBlock src) {
    os_ << what;
    Pos(src);
    os_ << '\n';
  }
  void Refused(const char *what, parser::CharBlock src) {
    os_ << "x";
    Pos(src);
    os_ << ' ' << what << '\n';
  }

  // ALLOCATE: "alloc L C NAME N (LO|- HI)*" per object, options refused.
  void Allocate(const parser::AllocateStmt &a, parser::CharBlock src) {
    if (std::get<std::optional<parser::TypeSpec>>(a.t) ||
        !std::get<std::list<parser::AllocOpt>>(a.t).empty()) {
      Refused("allocate-with-type-or-options", src);
      return;
    }
    for (const auto &al : std::get<std::list<parser::Allocation>>(a.t)) {
      const auto *n{std::get_if<parser::Name>(&std::get<parser::AllocateObject>(al.t).u)};
      if (!n || std::get<std::optional<parser::AllocateCoarraySpec>>(al.t)) {
        Refused("allocate-of-a-component-or-coarray", src);
        continue;
      }
      os_ << "alloc";
      Pos(src);
      Name(*n);
      const auto &shape{std::get<std::list<parser::AllocateShapeSpec>>(al.t)};
      os_ << ' ' << shape.size();
      for (const auto &ss : shape) {
        if (const auto &lo{std::get<0>(ss.t)})
          E(lo->thing.thing.value());
        else
          os_ << " -";
        E(std::get<1>(ss.t).thing.thing.value());
      }
      os_ << '\n';
    }
  }
  void Deallocate(const parser::DeallocateStmt &d, parser::CharBlock src) {
    if (!std::get<std::list<parser::StatOrErrmsg>>(d.t).empty()) {
      Refused("deallocate-with-options", src);
      return;
    }
    for (const auto &o : std::get<std::list<parser::AllocateObject>>(d.t)) {
      const auto *n{std::get_if<parser::Name>(&o.u)};
      if (!n) {
        Refused("deallocate-of-a-component", src);
        continue;
      }
      os_ << "dealloc";
      Pos(src);
      Name(*n);
      os_ << '\n';
    }
  }

  // SELECT CASE on a variable: an if/elif chain comparing it with each
  // case's values, the default case last as the else (the cases do not
  // overlap, so the order does not matter).
  void Case(const parser::CaseConstruct &c) {
    const auto &sel{std::get<parser::Statement<parser::SelectCaseStmt>>(c.t)};
    const parser::Expr &e{std::get<1>(sel.statement.t).thing};
    if (!std::holds_alternative<common::Indirection<parser::Designator>>(e.u)) {
      Refused("select-case-on-an-expression (assign it to a variable first)",
          sel.source);
      return;
    }
    const parser::Block *dflt{nullptr};
    parser::CharBlock dsrc;
    bool first{true};
    for (const auto &cs : std::get<std::list<parser::CaseConstruct::Case>>(c.t)) {
      const auto &st{std::get<parser::Statement<parser::CaseStmt>>(cs.t)};
      const auto &cv{std::get<parser::CaseSelector>(st.statement.t)};
      const auto *ranges{std::get_if<std::list<parser::CaseValueRange>>(&cv.u)};
      if (!ranges) {
        dflt = &std::get<parser::Block>(cs.t);
        dsrc = st.source;
        continue;
      }
      os_ << (first ? "if" : "elif");
      Pos(st.source);
      first = false;
      for (size_t i = 1; i < ranges->size(); i++)
        os_ << " o or 2";
      for (const auto &r : *ranges) {
        if (const auto *v{std::get_if<parser::CaseValue>(&r.u)}) {
          os_ << " o eq 2";
          E(e);
          E(v->thing.thing.value());
        } else {
          const auto &rg{std::get<parser::CaseValueRange::Range>(r.u)};
          if (rg.lower && rg.upper)
            os_ << " o and 2";
          if (rg.lower) {
            os_ << " o ge 2";
            E(e);
            E(rg.lower->thing.thing.value());
          }
          if (rg.upper) {
            os_ << " o le 2";
            E(e);
            E(rg.upper->thing.thing.value());
          }
        }
      }
      os_ << '\n';
      Block(std::get<parser::Block>(cs.t));
    }
    if (dflt && first) { // only a default case
      Block(*dflt);
      return;
    }
    if (dflt) {
      os_ << "else";
      Pos(dsrc);
      os_ << '\n';
      Block(*dflt);
    }
    if (!first)
      os_ << "endif\n";
  }

  void Do(const parser::DoConstruct &d) {
    const auto &stmt{std::get<parser::Statement<parser::NonLabelDoStmt>>(d.t)};
    const auto &ctl{std::get<std::optional<parser::LoopControl>>(stmt.statement.t)};
    if (!ctl) {
      Refused("do-without-control", stmt.source);
      return;
    }
    if (const auto *b{std::get_if<parser::LoopControl::Bounds>(&ctl->u)}) {
      os_ << "do";
      Pos(stmt.source);
      os_ << ' ' << b->name.thing.ToString();
      E(b->lower.thing.value());
      E(b->upper.thing.value());
      if (b->step)
        E(b->step->thing.value());
      else
        os_ << " -";
      os_ << '\n';
    } else if (const auto *w{std::get_if<parser::ScalarLogicalExpr>(&ctl->u)}) {
      os_ << "while";
      Pos(stmt.source);
      E(w->thing.thing.value());
      os_ << '\n';
    } else {
      Refused("do-concurrent", stmt.source);
      return;
    }
    Block(std::get<parser::Block>(d.t));
    os_ << "enddo\n";
  }

  void If(const parser::IfConstruct &i) {
    const auto &then{std::get<parser::Statement<parser::IfThenStmt>>(i.t)};
    os_ << "if";
    Pos(then.source);
    E(std::get<parser::ScalarLogicalExpr>(then.statement.t).thing.thing.value());
    os_ << '\n';
    Block(std::get<parser::Block>(i.t));
    for (const auto &ei : std::get<std::list<parser::IfConstruct::ElseIfBlock>>(i.t)) {
      const auto &s{std::get<parser::Statement<parser::ElseIfStmt>>(ei.t)};
      os_ << "elif";
      Pos(s.source);
      E(std::get<parser::ScalarLogicalExpr>(s.statement.t).thing.thing.value());
      os_ << '\n';
      Block(std::get<parser::Block>(ei.t));
    }
    if (const auto &eb{std::get<std::optional<parser::IfConstruct::ElseBlock>>(i.t)}) {
      os_ << "else";
      Pos(std::get<parser::Statement<parser::ElseStmt>>(eb->t).source);
      os_ << '\n';
      Block(std::get<parser::Block>(eb->t));
    }
    os_ << "endif\n";
  }

  // ------------------------------------------------------ expressions
  void Variable(const parser::Variable &v) {
    if (const auto *d{std::get_if<common::Indirection<parser::Designator>>(&v.u)})
      Designator(d->value());
    else
      Unsupported("function-result-variable");
  }

  void Designator(const parser::Designator &d) {
    if (const auto *dr{std::get_if<parser::DataRef>(&d.u)})
      DataRef(*dr);
    else
      Unsupported("substring");
  }

  void Name(const parser::Name &n) {
    os_ << ' ' << (n.symbol ? n.symbol->name().ToString() : n.ToString());
  }

  void DataRef(const parser::DataRef &dr) {
    std::visit(
        common::visitors{
            [&](const parser::Name &n) {
              os_ << " v";
              Name(n);
              os_ << " 0";
            },
            [&](const common::Indirection<parser::ArrayElement> &a) {
              const parser::ArrayElement &ae{a.value()};
              const auto *n{std::get_if<parser::Name>(&ae.base.u)};
              if (!n) {
                Unsupported("structure-component");
                return;
              }
              os_ << " v";
              Name(*n);
              os_ << ' ' << ae.subscripts.size();
              for (const auto &ss : ae.subscripts) {
                if (const auto *ie{std::get_if<parser::IntExpr>(&ss.u)}) {
                  E(ie->thing.value());
                } else {
                  const auto &tr{std::get<parser::SubscriptTriplet>(ss.u)};
                  os_ << " t";
                  Opt(std::get<0>(tr.t));
                  Opt(std::get<1>(tr.t));
                  Opt(std::get<2>(tr.t));
                }
              }
            },
            [&](const auto &) { Unsupported("structure-component"); },
        },
        dr.u);
  }
  void Opt(const std::optional<parser::Subscript> &s) {
    if (s)
      E(s->thing.thing.value());
    else
      os_ << " -";
  }

  void Args(const std::list<parser::ActualArgSpec> &args) {
    os_ << ' ' << args.size();
    for (const auto &spec : args) {
      if (std::get<std::optional<parser::Keyword>>(spec.t)) {
        Unsupported("keyword-argument");
        continue;
      }
      const auto &aa{std::get<parser::ActualArg>(spec.t)};
      if (const auto *e{std::get_if<common::Indirection<parser::Expr>>(&aa.u)})
        E(e->value());
      else
        Unsupported("actual-argument");
    }
  }

  template <typename T> void Bin(const char *op, const T &x) {
    os_ << " o " << op << " 2";
    E(std::get<0>(x.t).value());
    E(std::get<1>(x.t).value());
  }
  template <typename T> void Un(const char *op, const T &x) {
    os_ << " o " << op << " 1";
    E(x.v.value());
  }

  void E(const parser::Expr &e) {
    std::visit(
        common::visitors{
            [&](const parser::LiteralConstant &l) { Literal(l, e); },
            [&](const common::Indirection<parser::Designator> &d) {
              Designator(d.value());
            },
            [&](const common::Indirection<parser::FunctionReference> &f) {
              Function(f.value(), e);
            },
            [&](const parser::Expr::Parentheses &x) { Un("paren", x); },
            [&](const parser::Expr::UnaryPlus &x) { E(x.v.value()); },
            [&](const parser::Expr::Negate &x) { Un("neg", x); },
            [&](const parser::Expr::NOT &x) { Un("not", x); },
            [&](const parser::Expr::Power &x) { Bin("pow", x); },
            [&](const parser::Expr::Multiply &x) { Bin("mul", x); },
            [&](const parser::Expr::Divide &x) { Bin("div", x); },
            [&](const parser::Expr::Add &x) { Bin("add", x); },
            [&](const parser::Expr::Subtract &x) { Bin("sub", x); },
            [&](const parser::Expr::LT &x) { Bin("lt", x); },
            [&](const parser::Expr::LE &x) { Bin("le", x); },
            [&](const parser::Expr::EQ &x) { Bin("eq", x); },
            [&](const parser::Expr::NE &x) { Bin("ne", x); },
            [&](const parser::Expr::GE &x) { Bin("ge", x); },
            [&](const parser::Expr::GT &x) { Bin("gt", x); },
            [&](const parser::Expr::AND &x) { Bin("and", x); },
            [&](const parser::Expr::OR &x) { Bin("or", x); },
            [&](const parser::Expr::EQV &x) { Bin("eqv", x); },
            [&](const parser::Expr::NEQV &x) { Bin("neqv", x); },
            [&](const auto &) { Unsupported("expression"); },
        },
        e.u);
  }

  // Flang analyses an expression as a whole: the nodes inside (the 1 of
  // -1) may have no typed expression of their own.
  static const evaluate::Expr<evaluate::SomeType> *Typed(const parser::Expr &e) {
    return e.typedExpr && e.typedExpr->v ? &*e.typedExpr->v : nullptr;
  }

  void Literal(const parser::LiteralConstant &l, const parser::Expr &e) {
    const auto *typed{Typed(e)};
    std::visit(
        common::visitors{
            [&](const parser::IntLiteralConstant &x) {
              os_ << " i " << std::get<parser::CharBlock>(x.t).ToString();
            },
            [&](const parser::RealLiteralConstant &) {
              auto ty{typed ? typed->GetType() : std::nullopt};
              std::string text{e.source.ToString()};
              int kind{4};
              if (ty)
                kind = ty->kind();
              else if (text.find_first_of("dD") != std::string::npos ||
                  text.find("_8") != std::string::npos)
                kind = 8;
              os_ << " r " << kind;
              Word(text);
            },
            [&](const parser::LogicalLiteralConstant &x) {
              os_ << " b " << (std::get<bool>(x.t) ? 1 : 0);
            },
            [&](const auto &) { Unsupported("literal"); },
        },
        l.u);
  }

  void Function(const parser::FunctionReference &f, const parser::Expr &e) {
    const auto &pd{std::get<parser::ProcedureDesignator>(f.v.t)};
    const auto *n{std::get_if<parser::Name>(&pd.u)};
    const auto *typed{Typed(e)};
    const evaluate::ProcedureRef *ref{
        typed ? evaluate::UnwrapProcedureRef(*typed) : nullptr};
    std::string name;
    bool intrinsic{false};
    if (ref && ref->proc().GetSpecificIntrinsic()) {
      intrinsic = true;
      name = n ? n->ToString() : ref->proc().GetSpecificIntrinsic()->name;
    } else if (ref && ref->proc().GetSymbol()) {
      name = ref->proc().GetSymbol()->GetUltimate().name().ToString();
    } else if (n && n->symbol) {
      const semantics::Symbol &u{n->symbol->GetUltimate()};
      intrinsic = u.attrs().test(semantics::Attr::INTRINSIC);
      name = u.name().ToString();
    } else {
      Unsupported("procedure-designator");
      return;
    }
    os_ << " f " << (intrinsic ? "i " : "u ") << name;
    Args(std::get<std::list<parser::ActualArgSpec>>(f.v.t));
  }
};

class F2xaifAction : public Fortran::frontend::PluginParseTreeAction {
  void executeAction() override {
    auto &parsing{getParsing()};
    if (!parsing.parseTree())
      return;
    Writer w{llvm::outs(), parsing.allCooked()};
    w.Program(*parsing.parseTree());
    llvm::outs().flush();
  }
};

} // namespace

static Fortran::frontend::FrontendPluginRegistry::Add<F2xaifAction> X(
    "f2xaif", "write the description xaiform's Fortran front end reads");
