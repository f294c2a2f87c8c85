#include "joints/target_expression.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <numbers>
#include <stdexcept>
#include <string_view>

namespace pegsim {

namespace {
constexpr std::string_view kFunctions1[] = {"sin", "cos", "tan", "exp", "log", "sqrt", "abs"};
constexpr std::string_view kFunctions2[] = {"min", "max"};

double call1(int f, double x) {
  switch (f) {
    case 0: return std::sin(x);
    case 1: return std::cos(x);
    case 2: return std::tan(x);
    case 3: return std::exp(x);
    case 4: return std::log(x);
    case 5: return std::sqrt(x);
    default: return std::abs(x);
  }
}
}  // namespace

// Recursive descent: expr = term {(+|-) term}; term = unary {(*|/) unary};
// unary = - unary | power; power = atom [^ unary]; atom = number | name | name(args) | (expr).
class ExpressionParser {
 public:
  explicit ExpressionParser(const std::string& text) : s_(text) {}

  TargetExpression parse() {
    expression();
    skip();
    if (i_ < s_.size()) fail("unexpected '" + std::string(1, s_[i_]) + "'");
    return out_;
  }

 private:
  using Op = TargetExpression::Op;
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument("column " + std::to_string(i_ + 1) + ": " + what);
  }
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool eat(char c) {
    skip();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  void emit(Op::Code code, double value = 0.0, int function = 0) { out_.code_.push_back(Op{code, value, function}); }

  void expression() {
    term();
    for (;;) {
      if (eat('+')) term(), emit(Op::Add);
      else if (eat('-')) term(), emit(Op::Sub);
      else return;
    }
  }
  void term() {
    unary();
    for (;;) {
      if (eat('*')) unary(), emit(Op::Mul);
      else if (eat('/')) unary(), emit(Op::Div);
      else return;
    }
  }
  void unary() {
    if (eat('-')) {
      unary();
      emit(Op::Neg);
      return;
    }
    eat('+');
    atom();
    if (eat('^')) unary(), emit(Op::Pow);
  }
  void atom() {
    skip();
    if (i_ >= s_.size()) fail("expected a number, a name or '(' at the end");
    const char c = s_[i_];
    if (eat('(')) {
      expression();
      if (!eat(')')) fail("expected ')'");
      return;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      const char* begin = s_.c_str() + i_;
      char* end = nullptr;
      const double v = std::strtod(begin, &end);
      if (end == begin || !std::isfinite(v)) fail("bad number");
      i_ += static_cast<std::size_t>(end - begin);
      emit(Op::Number, v);
      return;
    }
    if (!std::isalpha(static_cast<unsigned char>(c))) fail("unexpected '" + std::string(1, c) + "'");
    const std::size_t start = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) ++i_;
    const std::string name = s_.substr(start, i_ - start);
    if (name == "t") return emit(Op::T);
    if (name == "step") return emit(Op::Step);
    if (name == "h") return emit(Op::H);
    if (name == "pi") return emit(Op::Number, std::numbers::pi);
    for (int f = 0; f < static_cast<int>(std::size(kFunctions1)); ++f)
      if (name == kFunctions1[f]) {
        if (!eat('(')) fail("expected '(' after " + name);
        expression();
        if (!eat(')')) fail("expected ')' closing " + name + "(");
        return emit(Op::Call1, 0.0, f);
      }
    for (int f = 0; f < static_cast<int>(std::size(kFunctions2)); ++f)
      if (name == kFunctions2[f]) {
        if (!eat('(')) fail("expected '(' after " + name);
        expression();
        if (!eat(',')) fail(name + " takes two arguments");
        expression();
        if (!eat(')')) fail("expected ')' closing " + name + "(");
        return emit(Op::Call2, 0.0, f);
      }
    i_ = start;
    fail("unknown name '" + name + "' (known: t, step, h, pi, sin, cos, tan, exp, log, sqrt, abs, min, max)");
  }

  const std::string& s_;
  std::size_t i_ = 0;
  TargetExpression out_;
};

TargetExpression TargetExpression::parse(const std::string& text) { return ExpressionParser(text).parse(); }

double TargetExpression::evaluate(double t, long step, double h) const {
  double stack[64];
  int top = 0;
  for (const Op& op : code_) {
    switch (op.code) {
      case Op::Number: stack[top++] = op.value; break;
      case Op::T: stack[top++] = t; break;
      case Op::Step: stack[top++] = static_cast<double>(step); break;
      case Op::H: stack[top++] = h; break;
      case Op::Neg: stack[top - 1] = -stack[top - 1]; break;
      case Op::Call1: stack[top - 1] = call1(op.function, stack[top - 1]); break;
      default: {
        const double b = stack[--top];
        double& a = stack[top - 1];
        switch (op.code) {
          case Op::Add: a += b; break;
          case Op::Sub: a -= b; break;
          case Op::Mul: a *= b; break;
          case Op::Div: a /= b; break;
          case Op::Pow: a = std::pow(a, b); break;
          default: a = op.function == 0 ? std::min(a, b) : std::max(a, b); break;
        }
      }
    }
    if (top >= 64) throw std::invalid_argument("expression too deeply nested");
  }
  return top == 1 ? stack[0] : 0.0;
}

}  // namespace pegsim
