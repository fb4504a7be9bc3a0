c     tests/fgrad: fixed form, the independents and dependents from the
c     c$openad pragmas, a DO loop with a step, a DO WHILE, a function of
c     two arguments, exp, log, sqrt, cos and a power.
      subroutine head(x, y)
      double precision x(4), y(2)
      double precision t, f2
      integer i, k
c$openad INDEPENDENT(x)
      t = 0.0d0
      do i = 1, 4, 2
        t = t + f2(x(i), x(i + 1))
      end do
      y(1) = t
      k = 0
      y(2) = x(4)
      do while (k .lt. 3)
        y(2) = y(2) * cos(x(1)) + log(1.0d0 + x(k + 1)**2)
        k = k + 1
      end do
c$openad DEPENDENT(y)
      end

      double precision function f2(a, b)
      double precision a, b
      f2 = a * exp(b) / sqrt(1.0d0 + a * a)
      end
