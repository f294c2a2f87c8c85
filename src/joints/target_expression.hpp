// A small arithmetic expression of time for controller targets, e.g.
// "sin(0.01 * step)" (the Powerball arm of thesis Script 7) or
// "0.5 * (1 - cos(2 * pi * t))".
//
// Grammar: numbers, the variables t (s), step (the index of the step about to
// be taken) and h (s), the constant pi, + - * / ^ (power, right-associative),
// unary minus, parentheses, and the functions sin cos tan exp log sqrt abs of
// one argument and min max of two. Parsed once into postfix code; evaluation
// allocates nothing beyond a small stack.
#pragma once

#include <string>
#include <vector>

namespace pegsim {

class TargetExpression {
 public:
  // Throws std::invalid_argument "column N: what" on a syntax error.
  static TargetExpression parse(const std::string& text);
  double evaluate(double t, long step, double h) const;

 private:
  struct Op {
    enum Code : unsigned char { Number, T, Step, H, Add, Sub, Mul, Div, Pow, Neg, Call1, Call2 } code;
    double value = 0.0;
    int function = 0;
  };
  std::vector<Op> code_;
  friend class ExpressionParser;
};

}  // namespace pegsim
