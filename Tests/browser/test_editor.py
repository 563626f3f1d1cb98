"""The question editor in Chromium: a hotspot's regions drawn on its picture with a pointer."""
import json

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import sign_in, wait


def numbers(field):
    return [float(value) for value in field.get_attribute("value").replace(",", " ").split()]


def test_an_admin_draws_a_hotspots_regions_on_its_picture(portal, browser_factory):
    """A rectangle dragged corner to corner, a circle dragged from its centre and a polygon
    clicked corner by corner each fill their option's fields in the picture's own pixels; the
    preview the server draws from those fields shows the region drawn."""
    driver = browser_factory()
    sign_in(driver, portal, *portal.ADMIN)
    driver.get(portal.url + "/admin/questions?type=hotspot")
    driver.get(driver.find_element(By.CSS_SELECTOR, "table a[href^='/admin/questions/']").get_attribute("href") + "/edit")
    drawer = wait(driver, lambda d: d.find_element(By.ID, "region-drawer"))
    image = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#region-drawer .region-canvas img"))
    wait(driver, lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image),
         message="the picture of the question is not shown for drawing")
    assert drawer.is_displayed(), "the drawing panel stays hidden with the script running"
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", image)
    shown_width, shown_height, width, height = driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.width, r.height, arguments[0].naturalWidth, arguments[0].naturalHeight];", image)

    def at(fx, fy):
        """An offset from the picture's centre, for a point at these fractions of its size."""
        return round((fx - 0.5) * shown_width), round((fy - 0.5) * shown_height)

    def drag(start, end):
        ActionChains(driver).move_to_element_with_offset(image, *at(*start)).click_and_hold() \
            .move_to_element_with_offset(image, *at(*end)).move_to_element_with_offset(image, *at(*end)).release().perform()

    def near(value, wanted, size):
        return abs(value - wanted) <= size * 0.03

    # A rectangle for the first option.
    Select(driver.find_element(By.ID, "draw-option")).select_by_value("0")
    Select(driver.find_element(By.ID, "draw-shape")).select_by_value("rect")
    assert "corner" in driver.find_element(By.ID, "draw-gesture").text, "the panel does not say how to draw a rectangle"
    drag((0.2, 0.3), (0.5, 0.7))
    rect = numbers(driver.find_element(By.ID, "opt-coords-0"))
    assert len(rect) == 4 and near(rect[0], 0.2 * width, width) and near(rect[1], 0.3 * height, height) \
        and near(rect[2], 0.5 * width, width) and near(rect[3], 0.7 * height, height), "the rectangle dragged is %r in a %dx%d picture" % (rect, width, height)
    assert driver.find_element(By.ID, "opt-shape-0").get_attribute("value") == "rect"
    assert driver.find_element(By.ID, "draw-said").text, "nothing says the region was drawn"

    # A circle for the second, dragged from its centre outwards.
    Select(driver.find_element(By.ID, "draw-option")).select_by_value("1")
    Select(driver.find_element(By.ID, "draw-shape")).select_by_value("circle")
    drag((0.75, 0.3), (0.85, 0.3))
    circle = numbers(driver.find_element(By.ID, "opt-coords-1"))
    assert len(circle) == 3 and near(circle[0], 0.75 * width, width) and near(circle[1], 0.3 * height, height) \
        and near(circle[2], 0.1 * width, width), "the circle dragged is %r" % circle
    assert driver.find_element(By.ID, "opt-shape-1").get_attribute("value") == "circle"
    assert len(driver.find_elements(By.CSS_SELECTOR, "#region-drawer svg .drawn-region")) >= 2, "the regions are not drawn on the picture"

    # The first option again, as a triangle: three corners, then "Close the shape".
    Select(driver.find_element(By.ID, "draw-option")).select_by_value("0")
    Select(driver.find_element(By.ID, "draw-shape")).select_by_value("polygon")
    close = driver.find_element(By.ID, "draw-close")
    assert not close.is_displayed(), "the polygon can be closed before it has three corners"
    for corner in [(0.1, 0.6), (0.3, 0.9), (0.4, 0.6)]:
        ActionChains(driver).move_to_element_with_offset(image, *at(*corner)).click().perform()
    close.click()
    triangle = numbers(driver.find_element(By.ID, "opt-coords-0"))
    assert len(triangle) == 6 and near(triangle[2], 0.3 * width, width) and near(triangle[3], 0.9 * height, height), \
        "the triangle clicked is %r" % triangle
    assert driver.find_element(By.ID, "opt-shape-0").get_attribute("value") == "polygon"

    # A number typed in the field is drawn at once (the keyboard's way stays).
    field = driver.find_element(By.ID, "opt-coords-1")
    field.clear()
    field.send_keys("%d, %d, %d" % (width // 2, height // 2, width // 10))
    drawn = driver.execute_script("return [...document.querySelectorAll('#region-drawer svg circle.drawn-region')].map(c => c.getAttribute('cx'))")
    assert str(width // 2) in drawn, "the typed circle is not drawn: %r" % drawn

    # The server reads what was drawn: its preview shows the triangle as the first region.
    driver.find_element(By.CSS_SELECTOR, "button[name=preview]").click()
    preview = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".editor-preview .hotspot[data-regions]"))
    regions = json.loads(preview.get_attribute("data-regions"))
    assert regions[0]["shape"] == "polygon" and [round(value) for value in regions[0]["coords"]] == [round(value) for value in triangle], regions
    assert numbers(driver.find_element(By.ID, "opt-coords-0")) == [round(value) for value in triangle]
